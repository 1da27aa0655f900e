import Foundation
import JuiceBar
@testable import Storage
import Testing

/// The shop's own time zone, on every engine: stored with the shop, read by every process that
/// opens it, numbering orders whatever the machine's zone, and changed only when no order of the
/// shop day under way is waiting.
struct ShopSettingContractTests {
    static let seoul = TimeZone(identifier: "Asia/Seoul")!
    /// 2026-11-25 15:30 UTC: 00:30 on 2026-11-26 in Seoul.
    static let halfPastMidnightInSeoul = Date(timeIntervalSince1970: 1_795_620_600)
    static let utc = TimeZone(identifier: "UTC")!

    /// A new shop set to Asia/Seoul, and the same shop opened by a process whose clock says 00:30 there.
    private static func seoulShopAtHalfPastMidnight(_ engine: Engine) async throws -> (TestShop, ShopDatabase) {
        let shop = try await TestShop(engine)
        try await shop.database.settings.setTimeZone(seoul, at: halfPastMidnightInSeoul)
        return (shop, try await ShopDatabase.open(shop.location, now: { halfPastMidnightInSeoul }))
    }

    @Test func aNewShopTakesTZWhenItNamesAZoneElseSeoul() {
        #expect(ShopTimeZone.initialName(environment: [:]) == "Asia/Seoul")
        #expect(ShopTimeZone.initialName(environment: ["TZ": "UTC"]) == "UTC")
        #expect(ShopTimeZone.initialName(environment: ["TZ": ":America/New_York"]) == "America/New_York")
        #expect(ShopTimeZone.initialName(environment: ["TZ": "Mars/Olympus_Mons"]) == "Asia/Seoul")
        #expect(ShopTimeZone.initialName(environment: ["TZ": "GMT+9"]) == "Asia/Seoul")
        #expect(ShopTimeZone.named("asia/seoul") == nil)
    }

    @Test(arguments: Engine.available)
    func theZoneIsStoredWithTheShopForEveryProcess(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        #expect(try await shop.database.settings.timeZone() == TimeZone.current)
        try await shop.database.settings.setTimeZone(Self.seoul, at: TestShop.now())
        let other = try await shop.reopen()
        #expect(try await other.settings.timeZone() == Self.seoul)
        #expect(try await other.calendar().calendar.timeZone == Self.seoul)
        await other.close()
    }

    @Test(arguments: Engine.available)
    func ordersAreNumberedByTheStoredZoneWhateverTheMachines(_ engine: Engine) async throws {
        let (shop, atMidnight) = try await Self.seoulShopAtHalfPastMidnight(engine)
        let first = try await atMidnight.juiceBar.order("kiwiJuice", actor: "t").order
        #expect(first.day == "2026-11-26")
        #expect(first.number == 1)
        // Another process changes the zone; the next order of this one follows it.
        let other = try await shop.reopen()
        try await other.settings.setTimeZone(Self.utc, at: Self.halfPastMidnightInSeoul)
        let second = try await atMidnight.juiceBar.order("kiwiJuice", actor: "t").order
        #expect(second.day == "2026-11-25")
        #expect(second.number == 1)
        // And its own change, from its very next order.
        try await atMidnight.settings.setTimeZone(Self.seoul, at: Self.halfPastMidnightInSeoul)
        let third = try await atMidnight.juiceBar.order("kiwiJuice", actor: "t").order
        #expect(third.day == "2026-11-26")
        #expect(third.number == 2)
        await other.close()
        await atMidnight.close()
    }

    @Test(arguments: Engine.available)
    func aChangeIsRefusedWhileOrdersOfTheDayAreQueued(_ engine: Engine) async throws {
        let (shop, atMidnight) = try await Self.seoulShopAtHalfPastMidnight(engine)
        let queued = try await atMidnight.juiceBar.order("kiwiJuice", actor: "t", pickup: true).order
        await #expect(throws: ShopSettingError.ordersQueued(day: "2026-11-26", count: 1)) {
            try await atMidnight.settings.setTimeZone(Self.utc, at: Self.halfPastMidnightInSeoul)
        }
        #expect(try await shop.database.settings.timeZone() == Self.seoul)
        for status in [OrderStatus.making, .ready, .pickedUp] {
            _ = try await atMidnight.juiceBar.move(order: queued.id, to: status, actor: "s")
        }
        try await atMidnight.settings.setTimeZone(Self.utc, at: Self.halfPastMidnightInSeoul)
        #expect(try await atMidnight.settings.timeZone() == Self.utc)
        await atMidnight.close()
    }
}
