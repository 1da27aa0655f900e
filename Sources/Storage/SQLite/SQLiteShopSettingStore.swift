import Foundation
internal import GRDB
import JuiceBar
import ShopBasics

/// The shop's settings in SQLite: one row of `shop_setting`. A change is one savepoint of the
/// writer, the same file write lock every order batch holds while it reads the zone and numbers.
public struct SQLiteShopSettingStore: ShopSettingStore {
    private let database: SQLiteDatabase

    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func timeZone() async throws -> TimeZone {
        try await database.pool.read { db in try Self.calendar(db).calendar.timeZone }
    }

    public func setTimeZone(_ zone: TimeZone, at now: Date) async throws {
        try await database.writer.write { db in
            let day = try Self.calendar(db).dayText(of: now)
            let queued = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM juice_order WHERE day = ? AND \(SQLiteJuiceBarStore.isActive)
                """, arguments: [day]) ?? 0
            if queued > 0 { throw ShopSettingError.ordersQueued(day: day, count: queued) }
            try db.execute(sql: "UPDATE shop_setting SET time_zone = ?", arguments: [ShopTimeZone.name(of: zone)])
            database.shopCalendar.forget()
        }
    }

    public func shopInfo() async throws -> ShopInfo {
        try await database.pool.read { db in try Self.shopInfo(db) }
    }

    public func changeShopInfo(_ change: @escaping @Sendable (ShopInfo) throws -> ShopInfo) async throws -> ShopInfo {
        try await database.writer.write { db in
            let info = try change(try Self.shopInfo(db))
            try db.execute(sql: "UPDATE shop_setting SET name = ?, business_number = ?, address = ?, phone = ?",
                           arguments: [info.name, info.businessNumber?.description, info.address, info.phone])
            return info
        }
    }

    private static func shopInfo(_ db: Database) throws -> ShopInfo {
        let row = try Row.fetchOne(db, sql: "SELECT name, business_number, address, phone FROM shop_setting")
        return ShopInfo(stored: row?["name"], businessNumber: row?["business_number"], address: row?["address"],
                        phone: row?["phone"])
    }

    /// The shop's info for its receipts, beside its time zone: NULL until set (`ShopInfo.unset`).
    /// The list of migrations names it (`shopSetting.v2.shopInfo`); it never changes once shipped.
    static func addShopInfo(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE shop_setting ADD COLUMN name TEXT;
            ALTER TABLE shop_setting ADD COLUMN business_number TEXT;
            ALTER TABLE shop_setting ADD COLUMN address TEXT;
            ALTER TABLE shop_setting ADD COLUMN phone TEXT;
            """)
    }

    /// The shop's calendar as stored, read inside the caller's transaction.
    static func calendar(_ db: Database) throws -> ShopCalendar {
        let name = try String.fetchOne(db.cachedStatement(sql: "SELECT time_zone FROM shop_setting")) ?? ShopTimeZone.fallback
        return ShopCalendar(timeZone: ShopTimeZone.stored(name))
    }
}
