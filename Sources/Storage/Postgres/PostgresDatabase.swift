import Foundation
import Logging
import Metrics
import PostgresNIO
import Synchronization

/// One PostgreSQL database shared by every server of the shop. Writes to the same part of the
/// shop (the fruit stock, the vending machine) take that part's transaction-scoped advisory
/// lock first, so they run one after another across every instance, and each commit also
/// notifies the other instances (`LISTEN`/`NOTIFY`) so they read the new state.
final class PostgresDatabase: Sendable {
    /// The pool, refusing at once while PostgreSQL is away (`PostgresConnections`).
    let connections: PostgresConnections
    let logger: Logger
    /// Names this process in notifications, so it does not re-read what it wrote itself.
    let instance = UUID().uuidString

    /// The channel every change notification goes out on.
    static let channel = "juicemaker_changes"

    /// The parts of the shop whose writers take turns; the values are advisory lock keys.
    enum Part: Int64 {
        case fruitStock = 74_100_001
        case vendingMachine = 74_100_002
    }

    /// Held while migrating, so instances starting together migrate one after another.
    static let migrationLock: Int64 = 74_100_000
    /// With a hash of the username: sign-in attempts for one username take turns.
    static let signInLock: Int32 = 74_100_003

    init(_ location: PostgresLocation) async throws {
        var logger = Logger(label: "juicemaker.postgres")
        // Failures reach the caller as errors; the client's own warnings would only add noise
        // (it warns when the first lease races the start of `run()`, which is harmless).
        logger.logLevel = .error
        self.logger = logger
        try await Self.checkConnection(to: location, logger: logger)
        connections = PostgresConnections(location, logger: logger)
        do {
            try await requireSynchronousCommit()
            try await PostgresSchema.migrate(self)
        } catch {
            await close()
            throw error
        }
    }

    /// Connects once: a refused connection or a wrong password is told at once and plainly
    /// (the pool would retry it quietly, and its errors hide the server's words).
    private static func checkConnection(to location: PostgresLocation, logger: Logger) async throws {
        do {
            let connection = try await PostgresConnection.connect(
                configuration: try location.connectionConfiguration(), id: 0, logger: logger)
            try await connection.close()
        } catch let error as PSQLError {
            let reason = PostgresConnections.reason(error)
            // A server that answered and said no (a wrong password, no such database) will say so
            // again: told at once. One not up yet (refused, or 57P03 "starting up") may be waited for.
            if let state = error.serverInfo?[.sqlState], !PostgresConnections.isConnectionLost(error) {
                throw StorageError.unusable("PostgreSQL at \(location.server) refused the shop (\(state)): \(reason)")
            }
            throw StorageError.unreachable("could not connect to PostgreSQL at \(location.server): \(reason)")
        }
    }

    /// Reads back what the sessions really run with: a server or pooler that ignored the
    /// start-up setting would answer writes before they are on disk, so the shop refuses to start.
    private func requireSynchronousCommit() async throws {
        let setting = try await row("SHOW synchronous_commit").decode(String.self)
        guard setting == "on" else {
            throw StorageError.unusable("PostgreSQL sessions run with synchronous_commit=\(setting); the shop needs on")
        }
    }

    func close() async {
        await connections.close()
    }

    /// Runs `body` in one transaction; it commits when `body` returns and rolls back when it
    /// throws, and the error `body` threw is the one that comes out. `begin` (one of the fixed
    /// forms in this code) goes out with the first statement instead of a round trip before it:
    /// PostgreSQL runs them in order, what can make it fail (a lost connection, a session left in
    /// a failed transaction) fails the statements after it too, and its answer is checked before
    /// the commit. One round trip fewer is less server CPU per order (`scripts/bench-postgres`).
    func transaction<T: Sendable>(
        _ begin: PostgresQuery = "BEGIN", _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await connections.withConnection { connection in
                let begun: EventLoopFuture<PostgresQueryResult> = connection.query(begin, logger: PostgresConnection.quiet)
                do {
                    let result = try await body(connection)
                    _ = try await begun.get()
                    try await connection.run("COMMIT")
                    return result
                } catch {
                    try? await connection.run("ROLLBACK")
                    throw error
                }
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {
            throw StorageError.busy("the shop's database is busy; try again")
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "53100" {
            throw StorageError.full
        }
    }

    /// Reads in one transaction that sees a single moment of the database, however many
    /// statements it takes.
    func read<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", body)
    }

    /// Runs `body` in one transaction that holds `part`'s lock from its first statement: every
    /// instance's writes to that part follow one another, so each reads the state the last one
    /// committed (READ COMMITTED whatever the server's default, so each statement sees the newest
    /// commit). That first statement is the part's locking read in the schema, given `lock`: it
    /// takes the lock, asks for the notice that tells the other instances of the change when it
    /// commits, and reads, in one round trip, which matters as the lock is held until the commit.
    /// A write that cannot get the lock within `lockTimeout` (another instance stuck holding it)
    /// fails as `StorageError.busy`. When `body` says nothing changed (every write refused), the
    /// transaction rolls back: no commit to sync, no notice for the other instances to read after.
    func write<T: Sendable>(
        _ part: Part, _ body: (PostgresConnection, PartLock) async throws -> (answer: T, changed: Bool)
    ) async throws -> T {
        let lock = PartLock(key: part.rawValue, instance: instance)
        defer { lock.released() }
        do {
            return try await transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { connection in
                let (answer, changed) = try await body(connection, lock)
                guard changed else { throw NothingChanged(answer: answer) }
                return answer
            }
        } catch let unchanged as NothingChanged<T> {
            return unchanged.answer
        }
    }

    /// What a part's locking read is given: the lock's key, and the notice's channel and payload.
    /// It also times how long this server holds the lock, from the locking read's answer (the lock
    /// is ours by then) to the end of the transaction, as the counter
    /// `juicemaker_write_lock_held_seconds_total{part}`: summed over the servers and divided by the
    /// wall time, the share of time the lock is held (`scripts/bench-postgres` prints it).
    final class PartLock: Sendable {
        let key: Int64
        let channel = PostgresDatabase.channel
        let instance: String
        private let takenAt = Mutex<ContinuousClock.Instant?>(nil)
        private let held: FloatingPointCounter

        init(key: Int64, instance: String) {
            self.key = key
            self.instance = instance
            held = Self.heldSeconds(key)
        }

        /// Called by the locking read once its answer has come: the lock is held from here.
        func taken() {
            takenAt.withLock { $0 = $0 ?? .now }
        }

        fileprivate func released() {
            guard let since = takenAt.withLock({ $0 }) else { return }
            let elapsed = ContinuousClock.now - since
            held.increment(by: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }

        private static func heldSeconds(_ key: Int64) -> FloatingPointCounter {
            let part = Part(rawValue: key).map { "\($0)" } ?? "\(key)"
            return FloatingPointCounter(label: "juicemaker_write_lock_held_seconds_total", dimensions: [("part", part)])
        }
    }

    /// Leaves a write's transaction by rolling back, with the answer it has all the same.
    private struct NothingChanged<T: Sendable>: Error {
        let answer: T
    }

    /// How long a write waits for its part's lock.
    static let lockTimeout = "5s"

    /// Reads with one statement, outside any explicit transaction.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await connections.withConnection { try await $0.rows(query) }
    }

    /// The one row a statement such as `INSERT … RETURNING` gives.
    func row(_ query: PostgresQuery) async throws -> PostgresRow {
        guard let row = try await rows(query).first else { throw PostgresStoreError.noRow }
        return row
    }

    var changeFeed: PostgresChangeFeed { PostgresChangeFeed(database: self) }
}

extension PostgresConnection {
    /// Queries are logged only when they fail, through the error they throw.
    static let quiet = Logger(label: "juicemaker.postgres.query", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs a statement whose rows, if any, are not needed.
    func run(_ query: PostgresQuery) async throws {
        _ = try await self.query(query, logger: Self.quiet).collect()
    }

    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await self.query(query, logger: Self.quiet).collect()
    }

    /// The one row a statement such as `INSERT … RETURNING` gives.
    func row(_ query: PostgresQuery) async throws -> PostgresRow {
        guard let row = try await rows(query).first else { throw PostgresStoreError.noRow }
        return row
    }
}

/// The database answered what this code does not expect of its schema.
enum PostgresStoreError: Error {
    /// A statement that must give a row gave none.
    case noRow
    /// A row of a kind this code does not know.
    case unexpectedRow
    /// A row without a column this code reads.
    case missingColumn(String)
}
