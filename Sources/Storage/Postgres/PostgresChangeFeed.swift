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
        let (ended, end) = AsyncStream.makeStream(of: (any Error).self)
        // The listening runs apart from the watch: after PostgreSQL crashed, a listen on its dead
        // socket may never end, nor heed cancellation. The watch ends all the same (and the next
        // one catches up), never waiting for it; cancelling it closes its connection.
        let listener = Task {
            do {
                try await listen(signal)
                end.yield(StorageError.unavailable("the PostgreSQL connection listening for changes ended"))
            } catch {
                end.yield(error)
            }
        }
        // The reads run apart too: one begun as PostgreSQL went away may hang on its dead
        // connection, and must not hold up the next watch, whose first read catches up anyway.
        let reader = Task {
            do {
                for await _ in pending {
                    try await changed()
                    // Under a stream of notices (another server's batches), one read now and
                    // then serves them all: those that arrive meanwhile fold into the next.
                    try await Task.sleep(for: PostgresChangeFeed.refreshPause)
                }
            } catch {
                end.yield(error)
            }
        }
        defer {
            listener.cancel()
            reader.cancel()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await error in ended { throw error }
            }
            // PostgreSQL taken to be away (another statement found it gone): after a crash the
            // listening connection may never hear of it.
            group.addTask {
                await database.connections.untilAway()
                throw StorageError.unavailable("PostgreSQL went away while this server listened for changes")
            }
            defer { group.cancelAll() }
            try await group.next()
            // Any side ending while still watched means the connection is gone.
            if !Task.isCancelled { throw StorageError.unavailable("the PostgreSQL connection listening for changes ended") }
        }
    }

    /// Listens on one connection, signalling once as soon as it listens (whatever changed before
    /// is read then) and again for each notice from another process.
    private func listen(_ signal: AsyncStream<Void>.Continuation) async throws {
        try await database.connections.withConnection { connection in
            try await withTaskCancellationHandler {
                try await withThrowingTaskGroup(of: Void.self) { listening in
                    listening.addTask {
                        try await connection.listen(on: PostgresDatabase.channel) { notifications in
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
            } onCancel: {
                connection.close().whenComplete { _ in }
            }
        }
    }
}
