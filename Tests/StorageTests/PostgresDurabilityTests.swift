import Foundation
import Logging
import PostgresNIO
@testable import Storage
import Testing

/// A PostgreSQL server whose default is to answer commits before they are on disk still gets
/// synced commits from the shop: every session asks for `synchronous_commit=on` itself.
@Suite(.enabled(if: Engine.postgresURL != nil, "needs the test PostgreSQL server"))
struct PostgresDurabilityTests {
    @Test func sessionsCommitSynchronouslyWhateverTheServersDefault() async throws {
        let shop = try await TestShop(.postgres)
        let location = try #require(try PostgresLocation(shop.location))
        let name = try #require(URLComponents(string: shop.location)?.path.dropFirst())
        try await withClient(location) { client in
            try await client.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(name) SET synchronous_commit = off"))
        }
        // The database's default now, as a new session that asks for nothing sees it.
        try await withClient(location) { client in
            let plain = try await client.query("SHOW synchronous_commit").collect().first?.decode(String.self)
            #expect(plain == "off")
        }
        let database = try await PostgresDatabase(location)
        let setting = try await database.row("SHOW synchronous_commit").decode(String.self)
        await database.close()
        #expect(setting == "on")
    }

    /// A client with no start-up settings of ours.
    private func withClient(_ location: PostgresLocation, _ body: (PostgresClient) async throws -> Void) async throws {
        var plain = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: .disable)
        plain.options.minimumConnections = 0
        let client = PostgresClient(configuration: plain, backgroundLogger: Logger(label: "test"))
        let running = Task { await client.run() }
        defer { running.cancel() }
        try await body(client)
    }
}
