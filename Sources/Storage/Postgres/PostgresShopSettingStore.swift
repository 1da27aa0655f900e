import Foundation
import JuiceBar
import PostgresNIO
import ShopBasics

/// The shop's settings in PostgreSQL: one row of `shop_setting`, shared by every server. Each
/// order batch reads the zone in its locking read, after it took the fruit stock's lock
/// (`juice_bar_book`); a change takes the row `FOR UPDATE` and then that lock before it commits,
/// so a change waits for the batch numbering now, and the next batch, waiting for the lock,
/// reads the zone the change committed.
public struct PostgresShopSettingStore: ShopSettingStore {
    private let database: PostgresDatabase

    init(database: PostgresDatabase) {
        self.database = database
    }

    public func timeZone() async throws -> TimeZone {
        let row = try await database.row("SELECT time_zone FROM shop_setting")
        return ShopTimeZone.stored(try row.decode(String.self))
    }

    public func setTimeZone(_ zone: TimeZone, at now: Date) async throws {
        try await database.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { connection in
            let stored = try await connection.row("SELECT time_zone FROM shop_setting FOR UPDATE").decode(String.self)
            let day = ShopCalendar(timeZone: ShopTimeZone.stored(stored)).dayText(of: now)
            // The stock's lock, so no status change or order of another instance is half way;
            // the notice has the other servers read the new zone.
            try await connection.run("""
                SELECT pg_advisory_xact_lock(\(PostgresDatabase.Part.fruitStock.rawValue)),
                       pg_notify(\(PostgresDatabase.channel), \(database.instance))
                """)
            let queued = try await connection.row("""
                SELECT count(*)::integer FROM juice_order WHERE day = \(day) AND status IN \(unescaped: OrderStatus.activeSQL)
                """).decode(Int.self)
            if queued > 0 { throw ShopSettingError.ordersQueued(day: day, count: queued) }
            try await connection.run("UPDATE shop_setting SET time_zone = \(ShopTimeZone.name(of: zone))")
        }
    }

    public func shopInfo() async throws -> ShopInfo {
        try Self.shopInfo(try await database.row("SELECT name, business_number, address, phone FROM shop_setting"))
    }

    /// The row is taken `FOR UPDATE`, so a change made at once by another instance waits for this one.
    public func changeShopInfo(_ change: @escaping @Sendable (ShopInfo) throws -> ShopInfo) async throws -> ShopInfo {
        try await database.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { connection in
            let info = try change(try Self.shopInfo(try await connection.row(
                "SELECT name, business_number, address, phone FROM shop_setting FOR UPDATE")))
            try await connection.run("""
                UPDATE shop_setting SET name = \(info.name), business_number = \(info.businessNumber?.description),
                                        address = \(info.address), phone = \(info.phone)
                """)
            return info
        }
    }

    private static func shopInfo(_ row: PostgresRow) throws -> ShopInfo {
        let (name, businessNumber, address, phone) = try row.decode((String?, String?, String?, String?).self)
        return ShopInfo(stored: name, businessNumber: businessNumber, address: address, phone: phone)
    }

    /// The shop's info for its receipts, beside its time zone, as in SQLite (`addShopInfo`): NULL
    /// until set. The list of migrations names it (`shop_info.v13`); it never changes once shipped.
    @Sendable static func addShopInfo(_ connection: PostgresConnection) async throws {
        try await connection.run("""
            ALTER TABLE shop_setting ADD COLUMN name text, ADD COLUMN business_number text,
                                     ADD COLUMN address text, ADD COLUMN phone text
            """)
    }
}
