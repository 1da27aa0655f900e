import Foundation
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
