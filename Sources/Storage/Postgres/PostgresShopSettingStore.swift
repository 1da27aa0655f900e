import Foundation
import JuiceBar
import PostgresNIO

/// The shop's settings in PostgreSQL: one row of `shop_setting`, shared by every server. Each
/// order batch reads the zone `FOR SHARE` before it takes the fruit stock's lock; a change takes
/// the row `FOR UPDATE` and then that lock (the same order, so neither waits on the other in a
/// circle), so a change waits for the batches numbering now and the next ones wait for it.
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

    /// The shop's calendar as stored, read in an order batch's write before it takes the stock's
    /// lock, holding the row so that a change waits until the batch is stored.
    static func calendarForWrite(_ connection: PostgresConnection) async throws -> ShopCalendar {
        let name = try await connection.row("SELECT time_zone FROM shop_setting FOR SHARE").decode(String.self)
        return ShopCalendar(timeZone: ShopTimeZone.stored(name))
    }

}
