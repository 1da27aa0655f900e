import PostgresNIO

/// Commits made through other instances (or the CLI), heard with `LISTEN`.
struct PostgresChangeFeed: ChangeFeed {
    let database: PostgresDatabase
    static let probeInterval: Duration = .seconds(30)
    /// The least time between two reads after notices, well under the second pages must follow:
    /// a notice after a quiet spell is read at once, and under another server's stream of
    /// commits one read of menu, stock and machine serves every notice of this long. A longer
    /// pause costs the servers less CPU an order (`scripts/bench-postgres --cpu-limit`).
    static let refreshPause: Duration = .milliseconds(300)

    func watch(_ changed: @escaping @Sendable () async throws -> Void) async throws {
        // One pending call at most: notifications that arrive while `changed` runs fold into it.
        let (pending, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { signal.finish() }
                try await database.client.withConnection { connection in
                    try await withThrowingTaskGroup(of: Void.self) { listening in
                        listening.addTask {
                            try await connection.listen(on: PostgresDatabase.channel) { notifications in
                                // Listening now: whatever changed before is read once.
                                signal.yield()
                                for try await notification in notifications
                                where notification.payload != database.instance {
                                    signal.yield()
                                }
                            }
                        }
                        // A listening connection sends nothing, so a network that drops it would
                        // go unnoticed; a query now and then finds out (and the watch starts over).
                        listening.addTask {
                            while true {
                                try await Task.sleep(for: PostgresChangeFeed.probeInterval)
                                try await connection.run("SELECT 1")
                            }
                        }
                        defer { listening.cancelAll() }
                        try await listening.next()
                    }
                }
            }
            group.addTask {
                for await _ in pending {
                    try await changed()
                    // Under a stream of notices (another server's batches), one read now and
                    // then serves them all: those that arrive meanwhile fold into the next.
                    try await Task.sleep(for: PostgresChangeFeed.refreshPause)
                }
            }
            defer { group.cancelAll() }
            try await group.next()
            // Either side ending while still watched means the connection is gone.
            if !Task.isCancelled { throw StorageError.unreachable("the PostgreSQL connection listening for changes ended") }
        }
    }
}
