import Foundation
import Logging
import PostgresNIO

/// A `postgres://user:password@host:port/database` URL, read into a client configuration.
/// `?sslmode=disable|prefer|require` chooses TLS as libpq does (default: prefer).
struct PostgresLocation {
    let configuration: PostgresClient.Configuration

    /// Nil when `location` is not a PostgreSQL URL (it is then a SQLite file's path).
    init?(_ location: String) throws {
        guard location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") else { return nil }
        guard let url = URLComponents(string: location), let host = url.host, !host.isEmpty,
              let username = url.user, !username.isEmpty
        else { throw StorageError.invalidLocation("expected postgres://user:password@host:port/database") }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        let tls: PostgresClient.Configuration.TLS
        switch url.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        case let mode: throw StorageError.invalidLocation("sslmode must be disable, prefer or require, not \(mode)")
        }
        configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432,
            username: username.removingPercentEncoding ?? username,
            password: url.password.map { $0.removingPercentEncoding ?? $0 },
            database: database.isEmpty ? nil : database, tls: tls)
    }
}

public enum StorageError: Error, CustomStringConvertible, Equatable {
    case invalidLocation(String)

    public var description: String {
        switch self {
        case .invalidLocation(let reason): "invalid database URL: \(reason)"
        }
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

    init(_ location: PostgresLocation) async throws {
        var logger = Logger(label: "juicemaker.postgres")
        // Failures reach the caller as errors; the client's own warnings would only add noise
        // (it warns when the first lease races the start of `run()`, which is harmless).
        logger.logLevel = .error
        self.logger = logger
        client = PostgresClient(configuration: location.configuration, backgroundLogger: logger)
        running = Task { [client] in await client.run() }
        do {
            try await PostgresSchema.migrate(self)
        } catch {
            await close()
            throw error
        }
    }

    func close() async {
        running.cancel()
        await running.value
    }

    /// Runs `body` in one transaction; it commits when `body` returns and rolls back when it
    /// throws, and the error `body` threw is the one that comes out.
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await connection.run("BEGIN")
            do {
                let result = try await body(connection)
                try await connection.run("COMMIT")
                return result
            } catch {
                try? await connection.run("ROLLBACK")
                throw error
            }
        }
    }

    /// Reads in one transaction that sees a single moment of the database, however many
    /// statements it takes.
    func read<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await transaction { connection in
            try await connection.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            return try await body(connection)
        }
    }

    /// Runs `body` in one transaction that holds `part`'s lock from its start: every instance's
    /// writes to that part follow one another, so each reads the state the last one committed.
    /// Other instances are told of the change when it commits.
    func write<T: Sendable>(_ part: Part, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await transaction { connection in
            try await connection.run("SELECT pg_advisory_xact_lock(\(part.rawValue))")
            let result = try await body(connection)
            try await connection.run("SELECT pg_notify(\(Self.channel), \(instance))")
            return result
        }
    }

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

    func watch(_ changed: @escaping @Sendable () async -> Void) async throws {
        // One pending call at most: notifications that arrive while `changed` runs fold into it.
        let (pending, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { signal.finish() }
                try await database.client.withConnection { connection in
                    try await connection.listen(on: PostgresDatabase.channel) { notifications in
                        // Listening now: whatever changed before is read once.
                        signal.yield()
                        for try await notification in notifications where notification.payload != database.instance {
                            signal.yield()
                        }
                    }
                }
            }
            group.addTask {
                for await _ in pending { await changed() }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

extension PostgresConnection {
    /// Queries are logged only when they fail, through the error they throw.
    private static let quiet = Logger(label: "juicemaker.postgres.query", factory: { _ in SwiftLogNoOpLogHandler() })

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
