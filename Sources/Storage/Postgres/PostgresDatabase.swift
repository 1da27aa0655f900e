import Foundation
import Logging
import PostgresNIO

/// A `postgres://user:password@host:port/database` URL, read into client configurations.
/// `?sslmode=` chooses TLS as libpq does: `disable`, `prefer` (the default: TLS when the server
/// offers it), `require` (TLS always), neither checking the certificate; `verify-full` checks the
/// certificate and the host name.
struct PostgresLocation {
    enum TLSMode: String {
        case disable, prefer, require
        case verifyFull = "verify-full"
    }

    let host: String
    let port: Int
    let username: String
    let password: String?
    let database: String?
    let tls: TLSMode

    /// host:port/database, for messages (never the password).
    var server: String { "\(host):\(port)/\(database ?? username)" }

    /// Whether `location` is a PostgreSQL URL rather than a SQLite file's path.
    static func names(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// Nil when `location` is not a PostgreSQL URL (it is then a SQLite file's path).
    init?(_ location: String) throws {
        guard Self.names(location) else { return nil }
        guard let url = URLComponents(string: location), let host = url.host, !host.isEmpty,
              let username = url.user, !username.isEmpty
        else { throw StorageError.invalidLocation("expected postgres://user:password@host:port/database") }
        let mode = url.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? TLSMode.prefer.rawValue
        guard let tls = TLSMode(rawValue: mode) else {
            throw StorageError.invalidLocation("sslmode must be disable, prefer, require or verify-full, not \(mode)")
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        self.host = host
        self.port = url.port ?? 5432
        // URLComponents has decoded %-escapes already.
        self.username = username
        self.password = url.password
        self.database = database.isEmpty ? nil : database
        self.tls = tls
    }

    /// The TLS settings for `prefer`, `require` and `verify-full`.
    private var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if tls != .verifyFull { configuration.certificateVerification = .none }
        return configuration
    }

    var clientConfiguration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS = switch self.tls {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration)
        case .require, .verifyFull: .require(tlsConfiguration)
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        // A session that stops in the middle of a transaction (a paused VM, a lost network)
        // would hold its part's lock for every instance; the server ends it instead. And a
        // commit is answered only once it is on disk, whatever the server's default says.
        // A write waits at most `lockTimeout` for its part's lock (then: busy).
        configuration.options.additionalStartupParameters = [
            ("idle_in_transaction_session_timeout", "30s"), ("statement_timeout", "30s"),
            ("synchronous_commit", "on"), ("lock_timeout", PostgresDatabase.lockTimeout),
        ]
        return configuration
    }

    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS = switch self.tls {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration))
        case .require, .verifyFull: .require(try NIOSSLContext(configuration: tlsConfiguration))
        }
        return .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
    }
}

/// One PostgreSQL database shared by every server of the shop. Writes to the same part of the
/// shop (the fruit stock, the vending machine) take that part's transaction-scoped advisory
/// lock first, so they run one after another across every instance, and each commit also
/// notifies the other instances (`LISTEN`/`NOTIFY`) so they read the new state.
final class PostgresDatabase: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Names this process in notifications, so it does not re-read what it wrote itself.
    let instance = UUID().uuidString
    private let running: Task<Void, Never>

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
        client = PostgresClient(configuration: location.clientConfiguration, backgroundLogger: logger)
        running = Task { [client] in await client.run() }
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
            let reason = error.serverInfo?[.message] ?? error.underlying.map { "\($0)" } ?? "\(error.code)"
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
        running.cancel()
        await running.value
    }

    /// Runs `body` in one transaction; it commits when `body` returns and rolls back when it
    /// throws, and the error `body` threw is the one that comes out.
    func transaction<T: Sendable>(
        _ begin: PostgresQuery = "BEGIN", _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await client.withConnection { connection in
                try await connection.run(begin)
                do {
                    let result = try await body(connection)
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
        do {
            return try await transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { connection in
                let (answer, changed) = try await body(connection, PartLock(key: part.rawValue, instance: instance))
                guard changed else { throw NothingChanged(answer: answer) }
                return answer
            }
        } catch let unchanged as NothingChanged<T> {
            return unchanged.answer
        }
    }

    /// What a part's locking read is given: the lock's key, and the notice's channel and payload.
    struct PartLock {
        let key: Int64
        let channel = PostgresDatabase.channel
        let instance: String
    }

    /// Leaves a write's transaction by rolling back, with the answer it has all the same.
    private struct NothingChanged<T: Sendable>: Error {
        let answer: T
    }

    /// How long a write waits for its part's lock.
    static let lockTimeout = "5s"

    /// Reads with one statement, outside any explicit transaction.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await client.query(query, logger: logger).collect()
    }

    /// The one row a statement such as `INSERT … RETURNING` gives.
    func row(_ query: PostgresQuery) async throws -> PostgresRow {
        guard let row = try await rows(query).first else { throw PostgresStoreError.noRow }
        return row
    }

    var changeFeed: PostgresChangeFeed { PostgresChangeFeed(database: self) }
}

/// Commits made through other instances (or the CLI), heard with `LISTEN`.
struct PostgresChangeFeed: ChangeFeed {
    let database: PostgresDatabase
    static let probeInterval: Duration = .seconds(30)
    /// The least time between two reads after notices: well under the second pages must follow.
    static let refreshPause: Duration = .milliseconds(100)

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

/// A statement that must give a row gave none: the schema is not what this code expects.
enum PostgresStoreError: Error {
    case noRow
}
