import Foundation
internal import GRDB

/// Notices commits by any other connection, this process's or another's, by polling SQLite's
/// `PRAGMA data_version` on a connection of its own.
public final class SQLiteChangeFeed: ChangeFeed {
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
