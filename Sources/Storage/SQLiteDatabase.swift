import Foundation
internal import GRDB

/// One SQLite file shared by every part of the shop: WAL, `synchronous=FULL`, migrations on
/// open, one group-committing writer, and a busy timeout so several processes on one file wait
/// for each other instead of failing.
public final class SQLiteDatabase: Sendable {
    public let path: String
    let pool: DatabasePool
    /// Every write of this process goes through here, group-committed.
    let writer: GroupCommitWriter

    /// How long a write waits for another process's transaction before giving up.
    static let busyTimeout: TimeInterval = 30

    public init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            // An answered write survives a power cut, not only a crash: WAL with a sync at every commit.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        writer = GroupCommitWriter(pool: pool)
        try Self.migrate(pool)
    }

    /// GRDB checks which migrations are applied before it takes the write lock, so two processes
    /// opening a new file together can both try the same migration. Each migration is one
    /// transaction, so the loser changed nothing: it looks again and goes on from there.
    private static func migrate(_ pool: DatabasePool) throws {
        let migrator = Self.migrator
        var attempts = 0
        while true {
            do {
                return try migrator.migrate(pool)
            } catch {
                attempts += 1
                if try pool.read(migrator.hasCompletedMigrations) { return }
                if attempts >= migrator.migrations.count + 1 { throw error }
            }
        }
    }

    /// Every area of the shop adds its tables here, in order; a migration never changes once shipped.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        JuiceBarSchema.register(in: &migrator)
        SQLiteAccountStore.register(in: &migrator)
        SQLiteVendingStore.register(in: &migrator)
        SQLiteContentStore.register(in: &migrator)
        JuiceBarSchema.registerMemberOrders(in: &migrator)
        return migrator
    }

    /// Watches for commits by other connections, so a server notices writes made by the CLI.
    public func makeChangeWatcher() throws -> SQLiteChangeWatcher {
        try SQLiteChangeWatcher(path: path)
    }
}

/// Notices commits by any other connection, this process's or another's, by polling SQLite's
/// `PRAGMA data_version` on a connection of its own.
public final class SQLiteChangeWatcher: ChangeFeed {
    private let queue: DatabaseQueue
    /// Well under the one second within which every open page must follow a change.
    private let interval: Duration = .milliseconds(150)

    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(SQLiteDatabase.busyTimeout)
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    public func watch(_ changed: @escaping @Sendable () async throws -> Void) async throws {
        var lastVersion = try await version()
        try await changed()
        while !Task.isCancelled {
            try await Task.sleep(for: interval)
            let version = try await version()
            guard version != lastVersion else { continue }
            lastVersion = version
            try await changed()
        }
    }

    private func version() async throws -> Int {
        try await queue.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }
}

extension Date {
    /// How the shop stores a moment: seconds since 1970 as a REAL. Cheap to write and to compare;
    /// GRDB's default text form runs a date formatter on every write, a third of an order's cost.
    var storedValue: Double { timeIntervalSince1970 }
}
