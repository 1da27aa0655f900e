#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file a SQLite shop was opened from, by identity (device and inode) rather than by name.
/// SQLite keeps writing to an open file after it is deleted or replaced, and nobody would ever
/// read those writes: the writer checks before each commit that the path still names this file.
struct SQLiteDatabaseFile: Sendable {
    let path: String
    private let device: UInt64
    private let inode: UInt64

    /// The file now at `path`; nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.path = path
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Throws `StorageError.lost` when `path` no longer names the file that was opened.
    func verifyInPlace() throws {
        guard let now = SQLiteDatabaseFile(path: path), now.device == device, now.inode == inode else {
            throw StorageError.lost("the database file \(path) was deleted or replaced while the shop was running; nothing was saved")
        }
    }
}
