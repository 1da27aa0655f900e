import App
import DayClose
import Foundation
import JuiceBar
import ShopBasics
import Storage
import Testing

/// What every engine must do for day reports; each test runs on each engine.
@Suite struct DayReportContractTests {
    /// The shop's clock, from noon today: a run crossing midnight does not turn a test's day.
    let now = TestShop.clock(startingAt: TestShop.todayAtNoon)
    var tomorrow: @Sendable () -> Date { { [now] in now() + 86_400 } }

    @Test(arguments: Engine.available)
    func reportsChainDayAfterDayAndVerifyUntilARecordIsChanged(_ engine: Engine) async throws {
        let shop = try await TestShop(engine, now: now)
        let first = try await shop.juiceBar.order("kiwiJuice", actor: "t").order
        let cancelled = try await shop.juiceBar.order("bananaJuice", actor: "t", pickup: true).order
        _ = try await shop.juiceBar.cancel(order: cancelled.id, by: .staff, actor: "s")
        _ = try await shop.vending.insert(1000, actor: "g", at: now())
        let today = ShopDays(shop.database, calendar: ShopCalendar(), now: now)
        let one = try await today.close()
        #expect(one.report.number == 1 && one.report.previousHash == ReportChain.genesis)
        #expect(one.report.orders["kiwiJuice"] == JuiceTally(made: 1, cancelled: 0))
        #expect(one.report.orders["bananaJuice"] == JuiceTally(made: 0, cancelled: 1))
        #expect(one.report.money == MoneyTally(inserted: 1000, spent: 0, returned: 0, balance: 1000))
        await #expect(throws: DayCloseError.alreadyClosed(day: one.report.day)) { try await today.close() }
        let yesterday = ShopDays(shop.database, calendar: ShopCalendar(), now: { [now] in now() - 86_400 })
        await #expect(throws: DayCloseError.self, "a day before the last one closed") { try await yesterday.close() }
        _ = try await shop.juiceBar.order("mangoJuice", actor: "t")

        let nextDay = try await ShopDatabase.open(shop.location, now: tomorrow)
        _ = try await nextDay.juiceBar.order("kiwiJuice", actor: "t")
        let two = try await ShopDays(nextDay, calendar: ShopCalendar(), now: tomorrow).close()
        #expect(two.report.number == 2 && two.report.previousHash == one.hash && two.report.day != one.report.day)
        #expect(two.report.since == one.report.closedAt)
        #expect(two.report.orders["mangoJuice"]?.made == 1, "an order after the first close is in the next report")
        #expect(two.report.totals.made == 2 && two.report.totals.cancelled == 0)
        #expect(try await today.verify() == [one, two])
        #expect(try await today.reports() == [one, two])
        #expect(try await today.report(number: 2) == two)

        try await shop.executeBehindTheShop("UPDATE juice_order SET juice_id = 'mangoJuice' WHERE id = \(first.id)")
        let broken = await #expect(throws: BrokenReport.self) { try await today.verify() }
        #expect(broken?.number == 1 && broken?.day == one.report.day)
        #expect(broken?.reason == .records(["records"]), "the cups count by the lines sold, which still say kiwi")
        await nextDay.close()
    }

    /// Cash and card at the counter, a card payment refunded, a juice handed over unpaid and paid
    /// by transfer after the close: each won lands in one report, and a price changed behind the
    /// shop shows.
    @Test(arguments: Engine.available)
    func theTakingsCountTheDaysMoneyAndAPriceChangedBehindTheShopShows(_ engine: Engine) async throws {
        let shop = try await TestShop(engine, now: now)
        _ = try await shop.juiceBar.deliver("strawberry", count: 40, actor: "t")
        let cash = try await shop.juiceBar.order(OrderRequest(
            lines: [CartLine(juice: "strawberryBananaJuice", quantity: 2, options: ["size": ["large"], "ice": ["less"]]),
                    CartLine(juice: "mangoKiwiJuice")],
            payment: PaymentRequest(method: .cash, received: 30_000)), actor: "t").order
        let card = try await shop.juiceBar.order(
            OrderRequest(lines: [CartLine(juice: "kiwiJuice")], payment: PaymentRequest(method: .card, approval: "30012345")),
            actor: "t").order
        let refunded = try await shop.juiceBar.order(
            OrderRequest(lines: [CartLine(juice: "mangoJuice")], pickup: true, payment: PaymentRequest(method: .card)),
            actor: "t").order
        _ = try await shop.juiceBar.cancel(order: refunded.id, by: .staff, actor: "s")
        let unpaid = try await shop.juiceBar.order("bananaJuice", actor: "t").order
        let days = ShopDays(shop.database, calendar: ShopCalendar(), now: now)
        let one = try await days.close()
        let takings = try #require(one.report.takings)
        #expect(cash.total == 20_500 && takings.gross == 20_500 + 5_000 + 6_000 && takings.refunds == 6_000)
        #expect(takings.net == 25_500 && takings.vat == cash.vat + card.vat)
        #expect(takings.methods["cash"] == MethodTakings(gross: 20_500, refunds: 0, net: 20_500) && takings.cashInDrawer == 20_500)
        #expect(takings.methods["card"] == MethodTakings(gross: 11_000, refunds: 6_000, net: 5_000))
        #expect(takings.juices["strawberryBananaJuice"] == JuiceSales(cups: 2, amount: 14_000) && takings.juices["mangoJuice"] == nil)
        #expect(takings.options["size"] == ["large": 2, "regular": 3], "the 망키, the 키위 and the 바나나 regular")
        #expect(takings.unpaid == [unpaid.id] && takings.unpaidPickedUp == [unpaid.id])
        #expect(one.report.orders["mangoKiwiJuice"] == JuiceTally(made: 1, cancelled: 0))

        _ = try await shop.juiceBar.pay(order: unpaid.id, with: PaymentRequest(method: .transfer), actor: "s")
        #expect(try await days.verify() == [one], "a payment after the close is business, not an edit")
        let nextDay = try await ShopDatabase.open(shop.location, now: tomorrow)
        let two = try await ShopDays(nextDay, calendar: ShopCalendar(), now: tomorrow).close()
        #expect(two.report.takings?.gross == 4_500 && two.report.takings?.methods["transfer"]?.net == 4_500)
        #expect(two.report.takings?.paidLate == [unpaid.id] && two.report.takings?.unpaid == [])
        #expect(two.report.takings?.juices == [:], "sold the day before")
        #expect(try await days.verify() == [one, two])

        try await shop.executeBehindTheShop(
            #"UPDATE juice_order SET lines = replace(lines, '"unitPrice":5000', '"unitPrice":4000') WHERE id = \#(card.id)"#)
        let broken = await #expect(throws: BrokenReport.self) { try await days.verify() }
        #expect(broken?.number == 1 && broken?.reason == .records(["records"]))
        await nextDay.close()
    }

    @Test(arguments: Engine.available)
    func anOrderOpenAtTheCloseMayMoveOnButNotBeMarkedCancelledBehindTheShop(_ engine: Engine) async throws {
        let shop = try await TestShop(engine, now: now)
        let waiting = try await shop.juiceBar.order("kiwiJuice", actor: "m", pickup: true).order
        let other = try await shop.juiceBar.order("mangoJuice", actor: "m", pickup: true).order
        let days = ShopDays(shop.database, calendar: ShopCalendar(), now: now)
        let report = try await days.close().report
        #expect(report.open == [waiting.id, other.id])
        _ = try await shop.juiceBar.cancel(order: other.id, by: .staff, actor: "s")
        _ = try await shop.juiceBar.move(order: waiting.id, to: .ready, actor: "s")
        #expect(try await days.verify().count == 1, "a cancel and a move after the close are business, not edits")

        try await shop.executeBehindTheShop("UPDATE juice_order SET status = 'cancelled' WHERE id = \(waiting.id)")
        let broken = await #expect(throws: BrokenReport.self) { try await days.verify() }
        #expect(broken?.reason == .records(["open"]))
    }

    @Test(arguments: Engine.available)
    func aStoredReportCannotBeChangedOrDeleted(_ engine: Engine) async throws {
        let shop = try await TestShop(engine, now: now)
        let sealed = try await ShopDays(shop.database, calendar: ShopCalendar(), now: now).close()
        for statement in ["UPDATE day_report SET body = '{}'", "DELETE FROM day_report"] {
            await #expect(throws: (any Error).self, "\(statement)") { try await shop.executeBehindTheShop(statement) }
        }
        if engine == .postgres {
            await #expect(throws: (any Error).self) { try await shop.executeBehindTheShop("TRUNCATE day_report") }
            await #expect(throws: (any Error).self) {
                try await shop.executeBehindTheShop(
                    "INSERT INTO day_report VALUES (1, 'x', '{}', 'x') ON CONFLICT (number) DO UPDATE SET body = '{}'")
            }
        } else {
            // REPLACE deletes the old row without firing a delete trigger; the insert trigger passes over it.
            try await shop.executeBehindTheShop("INSERT OR REPLACE INTO day_report VALUES (1, 'x', '{}', 'x')")
        }
        #expect(try await ShopDays(shop.database, calendar: ShopCalendar()).verify() == [sealed])
    }

    @Test(arguments: Engine.available)
    func concurrentClosesStoreOneReport(_ engine: Engine) async throws {
        let shop = try await TestShop(engine, now: now)
        let days = ShopDays(shop.database, calendar: ShopCalendar(), now: now)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { (try? await days.close()) != nil } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await days.reports().count == 1)
    }

    @Test(arguments: Engine.available)
    func aCloseAmidOrdersAndSalesCoversExactlyWhatCommittedBeforeIt(_ engine: Engine) async throws {
        let shop = try await TestShop(engine, now: now)
        _ = try await shop.juiceBar.deliver("banana", count: 200, actor: "t")
        let days = ShopDays(shop.database, calendar: ShopCalendar(), now: now)
        let sealed = try await withThrowingTaskGroup(of: SealedReport?.self) { group in
            for index in 0..<60 {
                group.addTask {
                    if index == 30 { return try await days.close() }
                    if index % 3 == 0 { _ = try await shop.vending.insert(100, actor: "g", at: now()) }
                    _ = try await shop.juiceBar.order("bananaJuice", actor: "t")
                    return nil
                }
            }
            return try await group.reduce(into: [SealedReport]()) { if let report = $1 { $0.append(report) } }
        }
        let report = try #require(sealed.first).report
        #expect(report.totals.made == Int(report.through.orders), "every order up to the marks, and none after")
        #expect(try await days.verify().count == 1, "orders committed after the close leave it as it was")
    }
}
