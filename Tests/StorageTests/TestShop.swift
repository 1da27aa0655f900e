import Foundation
internal import GRDB
import Logging
import PostgresNIO
@testable import Storage
import Testing

/// The engines every storage contract test runs on: SQLite always, and PostgreSQL when the
/// test script has started one (`$JUICEMAKER_TEST_POSTGRES_URL`, a superuser's URL).
enum Engine: String, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static let postgresURL = ProcessInfo.processInfo.environment["JUICEMAKER_TEST_POSTGRES_URL"]
    static let available: [Engine] = postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]

    var testDescription: String { rawValue }
}

/// A shop on a database of its own, new and empty but for the migrations' seed data.
struct TestShop: Sendable {
    let location: String
    let database: ShopDatabase
    /// The stores' clock, the same again when the shop is reopened.
    let now: @Sendable () -> Date
    /// Removes a SQLite test file's folder when the last copy of the shop is gone.
    private let folder: TemporaryFolder?

    var juiceBar: any JuiceBarStore { database.juiceBar }
    var vending: any VendingStore { database.vending }
    var accounts: any AccountStore { database.accounts }
    var content: any ContentStore { database.content }

    init(_ engine: Engine, now: @escaping @Sendable () -> Date = TestShop.now) async throws {
        switch engine {
        case .sqlite:
            let folder = try TemporaryFolder()
            self.folder = folder
            location = folder.url.appendingPathComponent("shop.sqlite").path
        case .postgres:
            folder = nil
            location = try await Self.newPostgresDatabase()
        }
        self.now = now
        // The machine's zone, as the tests' `ShopCalendar()` counts days in it.
        database = try await ShopDatabase.open(location, newShopTimeZone: .current, now: now)
    }

    /// A SQLite shop as the build whose last migration was `migration` left it, holding `rows`
    /// (written in that build's names), opened by this one, which migrates it.
    init(sqliteUpTo migration: String, rows: String, now: @escaping @Sendable () -> Date = TestShop.now) async throws {
        let folder = try TemporaryFolder()
        self.folder = folder
        location = folder.url.appendingPathComponent("shop.sqlite").path
        try await Self.makeOldSQLiteShop(at: location, upTo: migration, rows: rows)
        self.now = now
        database = try await ShopDatabase.open(location, newShopTimeZone: .current, now: now)
    }

    /// A SQLite shop file at `path` as the build whose last migration was `migration` left it,
    /// holding `rows`.
    static func makeOldSQLiteShop(at path: String, upTo migration: String, rows: String) async throws {
        let old = try DatabasePool(path: path)
        try SQLiteSchema.migrator.migrate(old, upTo: migration)
        try await old.write { db in try db.execute(sql: rows) }
        try old.close()
    }

    /// The same database opened again, as another process or server would.
    func reopen() async throws -> ShopDatabase {
        try await ShopDatabase.open(location, now: now)
    }

    /// Runs `sql` straight on the database, past every store: what someone with `sqlite3` or
    /// `psql` could do.
    func executeBehindTheShop(_ sql: String) async throws {
        if folder != nil {
            try await DatabaseQueue(path: location).write { try $0.execute(sql: sql) }
            return
        }
        _ = try await rows(sql)
    }

    /// The rows `sql` gives, run straight on the PostgreSQL database, past every store.
    func rows(_ sql: String) async throws -> [PostgresRow] {
        let server = try #require(try PostgresLocation(location))
        let client = PostgresClient(configuration: server.clientConfiguration, backgroundLogger: Logger(label: "test"))
        let running = Task { await client.run() }
        defer { running.cancel() }
        return try await client.query(PostgresQuery(unsafeSQL: sql)).collect()
    }

    /// The time in whole seconds: a moment the stores keep as seconds since 1970 comes back
    /// exactly only then (`Date` counts from 2001, and the shift rounds away sub-microseconds).
    @Sendable static func now() -> Date {
        inWholeSeconds(Date())
    }

    private static func inWholeSeconds(_ time: Date) -> Date {
        Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded())
    }

    /// A clock that starts at `start` and runs on with the real one, in whole seconds, as `now`.
    /// A test that counts shop days starts at noon (`todayAtNoon`), so that a run crossing
    /// midnight does not turn the day between two of its orders.
    static func clock(startingAt start: Date) -> @Sendable () -> Date {
        let began = Date()
        return { inWholeSeconds(start + Date().timeIntervalSince(began)) }
    }

    /// Noon today in the machine's zone, the shop's in these tests.
    static var todayAtNoon: Date {
        Calendar.current.date(bySettingHour: 12, minute: 0, second: 0, of: Date())!
    }

    /// Creates a database on the test server and returns its URL.
    private static func newPostgresDatabase() async throws -> String {
        let serverURL = try #require(Engine.postgresURL)
        let name = "jm_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let server = try #require(try PostgresLocation(serverURL))
        let client = PostgresClient(configuration: server.clientConfiguration, backgroundLogger: Logger(label: "test"))
        let running = Task { await client.run() }
        defer { running.cancel() }
        try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        var url = try #require(URLComponents(string: serverURL))
        url.path = "/" + name
        return try #require(url.string)
    }
}

/// A temporary folder, removed when no one holds it any more.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("juicemaker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
