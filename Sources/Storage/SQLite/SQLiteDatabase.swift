import Foundation
internal import GRDB
internal import GRDBSQLite
internal import SQLiteSettings
import Synchronization

/// One SQLite file shared by every part of the shop: WAL, `synchronous=FULL`, migrations on
/// open, one group-committing writer, and a busy timeout so several processes on one file wait
/// for each other instead of failing.
public final class SQLiteDatabase: Sendable {
    public let path: String
    let pool: DatabasePool
    /// Every write of this process goes through here, group-committed.
    let writer: SQLiteGroupCommitWriter
    /// Where this process finds the kept answers of idempotency keys.
    let keys = KeptKeys()
    /// The shop's calendar as the writer last read it.
    let shopCalendar = AsLastRead(read: SQLiteShopSettingStore.calendar)

    /// SQLite's process-wide settings (`SQLiteSettings.c`: no mutex per connection, no memory
    /// statistics), made before this process's first connection opens; SQLite's result code.
    static let processSettings: Int32 = juicemaker_sqlite_configure()

    /// Whether this process's connections each take a mutex of their own on every call: not once
    /// `processSettings` took effect. Read on the connection that commits.
    func connectionsTakeMutexes() -> Bool {
        pool.writeWithoutTransaction { db in sqlite3_db_mutex(db.sqliteConnection) != nil }
    }

    /// The bytes SQLite counts as allocated in this process: none once it keeps no statistics.
    static func memoryCounted() -> Int64 {
        var current: Int64 = 0, highest: Int64 = 0
        sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &current, &highest, 0)
        return current
    }

    /// How long a write waits for another process's transaction before giving up.
    static let busyTimeout: TimeInterval = 30

    /// Opens the shop at `path`, creating it when no file is there. A file that is there but is
    /// not a SQLite database (an empty one included) is refused: it is never silently replaced.
    public init(path: String) throws {
        _ = Self.processSettings
        self.path = path
        try Self.refuseUnusableFile(at: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            // Each write of a group is a savepoint, whose undo copy of every page it changes
            // SQLite keeps in a temporary file past 64 KiB: under strace, pwrites of their own
            // beside the log's. In memory it costs no system call and is gone at the commit anyway.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.syncEveryCommit(pool)
        guard let file = SQLiteDatabaseFile(path: path) else { throw StorageError.lost("\(path) vanished while it was opened") }
        writer = SQLiteGroupCommitWriter(pool: pool, file: file)
        try SQLiteSchema.migrate(pool)
    }

    /// An answered write must survive a power cut, not only a crash: in WAL mode that takes
    /// `synchronous=FULL` (a sync of the log at every commit). It is set on the writer, the one
    /// connection that commits, after GRDB's WAL set-up, which sets NORMAL; and read back, so a
    /// shop whose commits would not be synced refuses to open.
    private static func syncEveryCommit(_ pool: DatabasePool) throws {
        let level = try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            return try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 0
        }
        guard level >= fullSynchronous else {
            throw StorageError.unusable("SQLite reports synchronous=\(level) on the writer; the shop needs FULL (2) or EXTRA (3)")
        }
    }

    /// SQLite's number for `synchronous = FULL`.
    static let fullSynchronous = 2

    /// What `PRAGMA synchronous` says on the connection that commits.
    func writerSynchronousLevel() throws -> Int {
        try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 0 }
    }

    /// A missing file is a new shop; anything else must already be a SQLite database. A file
    /// is empty for a moment while another process creates the shop (SQLite writes the header
    /// when it turns WAL on), so an empty one is given that moment before it is refused.
    private static func refuseUnusableFile(at path: String) throws {
        var header = Data()
        for attempt in 0..<20 {
            guard let handle = FileHandle(forReadingAtPath: path) else { return }
            header = try handle.read(upToCount: 16) ?? Data()
            try? handle.close()
            guard header.isEmpty else { break }
            if attempt < 19 { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard !header.isEmpty else {
            throw StorageError.unusable("\(path) is an empty file, not a shop; move it away to start a new shop there")
        }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw StorageError.unusable("\(path) is not a SQLite database")
        }
    }

    /// Watches for commits by other connections, so a server notices writes made by the CLI.
    public func makeChangeFeed() throws -> SQLiteChangeFeed {
        try SQLiteChangeFeed(path: path)
    }
}

/// A value of the file as the writer last read it, read again only when it may have changed
/// since: a write of the writer's own changed it (`forget`), or another connection committed (the
/// CLI, another process on the file), which SQLite's `data_version` tells: a connection's own
/// commits leave it as it is. For what a batch reads every time and changes least: the menu's
/// three tables, the shop's time zone.
final class AsLastRead<Value: Sendable>: Sendable {
    private let read: @Sendable (Database) throws -> Value
    private let last = Mutex<(dataVersion: Int64, value: Value)?>(nil)

    init(read: @escaping @Sendable (Database) throws -> Value) {
        self.read = read
    }

    /// The value, in a transaction of the writer's.
    func value(_ db: Database) throws -> Value {
        let dataVersion = try db.integer("PRAGMA data_version") ?? 0
        if let last = last.withLock({ $0 }), last.dataVersion == dataVersion { return last.value }
        let value = try read(db)
        last.withLock { $0 = (dataVersion, value) }
        return value
    }

    /// The writer is changing the value: the next read reads it again.
    func forget() {
        last.withLock { $0 = nil }
    }
}
