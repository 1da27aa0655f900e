import Foundation
internal import GRDB

/// Copies of a SQLite shop, made and put back with SQLite's online backup API.
public enum SQLiteBackup {
    /// Copies the shop at `path` into a new file at `destination` while servers keep writing: the
    /// copy is one consistent moment (the whole file in one step, under one read transaction, which
    /// in WAL mode never blocks a writer), so it holds every commit made before it started. The copy
    /// is written beside `destination` and renamed into place once synced, so `destination` is
    /// never a half copy. Refuses to replace a file that is already there.
    public static func backup(_ path: String, to destination: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw StorageError.unusable("\(path) does not exist") }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw StorageError.unusable("\(destination) exists already; name a new file")
        }
        let source = try SQLiteDatabase(path: path)
        let partial = destination + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        do {
            let copy = try DatabaseQueue(path: partial)
            try source.pool.backup(to: copy)
            try copy.writeWithoutTransaction { db in
                // One file, no log beside it: what `restore` and a person with sqlite3 can use as it is.
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
            }
            try copy.close()
            try syncFile(at: partial)
            guard rename(partial, destination) == 0 else {
                throw StorageError.unusable("could not move the backup to \(destination): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
    }

    /// Puts the backup at `backup` in place of the shop at `path`, which no server (no connection
    /// at all) may be using: the shop is locked exclusively first, and a shop in use is refused
    /// with nothing changed. The backup must be a shop that passes `PRAGMA integrity_check`.
    public static func restore(_ backup: String, to path: String) throws {
        let copy = try checkedBackup(at: backup)
        let shop = try exclusivelyLocked(path)
        try copy.backup(to: shop)
        try shop.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try shop.close()
    }

    private static func checkedBackup(at path: String) throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path) else { throw StorageError.unusable("\(path) does not exist") }
        var configuration = Configuration()
        configuration.readonly = true
        let copy: DatabaseQueue
        do {
            copy = try DatabaseQueue(path: path, configuration: configuration)
            let verdict = try copy.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
            guard verdict == "ok" else { throw StorageError.unusable("\(path) fails integrity_check: \(verdict ?? "no answer")") }
            // A backup made before the tables took PostgreSQL's names is a shop too: opened, it migrates.
            let isShop = try copy.read { db in
                try (db.tableExists("juice_order") || db.tableExists("juiceOrder")) && db.tableExists("fruit")
            }
            guard isShop else { throw StorageError.unusable("\(path) is not a JuiceMaker shop") }
        } catch let error as DatabaseError {
            throw StorageError.unusable("\(path) is not a usable SQLite database: \(error.message ?? "\(error.resultCode)")")
        }
        return copy
    }

    /// A connection holding the shop's file exclusively, for as long as it is open: no other
    /// connection, in this process or another, can read or write it meanwhile. A file that another
    /// connection has open (a running server) cannot be locked so, and is refused at once.
    private static func exclusivelyLocked(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE") }
        do {
            let shop = try DatabaseQueue(path: path, configuration: configuration)
            try shop.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE; COMMIT") }
            return shop
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw StorageError.unusable("\(path) is in use (a server is running on it); stop it before restoring")
        }
    }

    private static func syncFile(at path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw StorageError.unusable("could not open \(path) to sync it") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw StorageError.unusable("could not sync \(path)") }
    }
}
