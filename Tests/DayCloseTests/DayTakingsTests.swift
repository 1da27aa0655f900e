import DayClose
import Foundation
import JuiceBar
import Testing

/// The takings of a Z report: money by when it changed hands, cups and options by the report's
/// orders, and the orders still owed, carried from report to report until paid.
@Suite struct DayTakingsTests {
    let noon = Date(timeIntervalSince1970: 1_795_575_600)
    var afterTheClose: Date { noon + 86_400 }

    func sale(_ lines: [CartLine]) -> PricedCart {
        try! Menu.seed.price(lines)
    }

    func order(_ id: Int64, _ lines: [CartLine], status: OrderStatus = .pickedUp, paid method: PaymentMethod? = nil,
               received: Int? = nil) -> Order {
        let sale = sale(lines)
        let payment = method.map {
            Payment(method: $0, amount: sale.total, received: received, change: received.map { $0 - sale.total }, time: noon)
        }
        return Order(id: id, juice: lines[0].juice, time: noon, actor: "staff", number: Int(id), day: "2026-11-25",
                     status: status, pickup: status != .pickedUp, sale: sale, payment: payment)
    }

    func cancelLine(_ id: Int64, of order: Order) -> LedgerEntry {
        LedgerEntry(id: id, time: noon, fruit: "mango", delta: 3, countAfter: 10, cause: .cancel, juice: order.juice,
                    orderID: order.id, actor: "staff")
    }

    /// 2 × 딸바 라지/얼음 적게 and a 망키 in cash; a 키위 by card; a 망고 by card, cancelled and
    /// refunded; a 바나나 handed over unpaid; a member's 딸기 queued, to be paid at the counter.
    var dayOrders: [Order] {
        var refunded = order(3, [CartLine(juice: "mangoJuice")], status: .cancelled, paid: .card)
        refunded.refund = refunded.payment?.refunded(at: noon)
        return [
            order(1, [CartLine(juice: "strawberryBananaJuice", quantity: 2, options: ["size": ["large"], "ice": ["less"]]),
                      CartLine(juice: "mangoKiwiJuice")], paid: .cash, received: 30_000),
            order(2, [CartLine(juice: "kiwiJuice")], paid: .card),
            refunded,
            order(4, [CartLine(juice: "bananaJuice")]),
            order(5, [CartLine(juice: "strawberryJuice")], status: .received),
        ]
    }

    func report(_ orders: [Order], verifying stored: ZReport? = nil, after previous: ZReport? = nil,
                earlier: [Int64: Order] = [:]) -> ZReport {
        var tally = stored.map { DayTally(verifying: $0, after: previous) }
            ?? DayTally(juices: [], fruits: [], products: [], after: previous)
        if let cancelled = orders.first(where: { $0.status == .cancelled }) { tally.add(cancelLine(1, of: cancelled)) }
        for order in orders { tally.add(order) }
        for id in tally.earlierOrders { tally.add(earlier: id, earlier[id]) }
        return tally.report(ReportChainTests.header)
    }

    @Test func aDayOfMixedSalesAddsUpToItsTakings() throws {
        let closed = report(dayOrders)
        let takings = try #require(closed.takings)
        let vat = { Prices.vat(ofTotal: $0) }
        #expect(takings.gross == 20_500 + 5_000 + 6_000, "every payment taken, the refunded one too")
        #expect(takings.refunds == 6_000)
        #expect(takings.net == 25_500)
        #expect(takings.vat == vat(20_500) + vat(5_000), "as the receipts of the payments kept")
        #expect(takings.methods == ["cash": MethodTakings(gross: 20_500, refunds: 0, net: 20_500),
                                    "card": MethodTakings(gross: 11_000, refunds: 6_000, net: 5_000),
                                    "transfer": MethodTakings()])
        #expect(takings.cashInDrawer == 20_500)
        #expect(takings.juices == ["strawberryBananaJuice": JuiceSales(cups: 2, amount: 14_000),
                                   "mangoKiwiJuice": JuiceSales(cups: 1, amount: 6_500),
                                   "kiwiJuice": JuiceSales(cups: 1, amount: 5_000),
                                   "bananaJuice": JuiceSales(cups: 1, amount: 4_500),
                                   "strawberryJuice": JuiceSales(cups: 1, amount: 5_500)], "the cancelled 망고 left out")
        #expect(takings.options == ["size": ["large": 2, "regular": 4], "ice": ["less": 2, "normal": 4],
                                    "sweetness": ["normal": 6]])
        #expect(takings.unpaid == [4, 5])
        #expect(takings.unpaidPickedUp == [4], "the 바나나 was handed over without being paid")
        #expect(closed.orders["strawberryBananaJuice"] == JuiceTally(made: 2, cancelled: 0), "cups, not orders")
        #expect(closed.orders["mangoKiwiJuice"] == JuiceTally(made: 1, cancelled: 0), "a cart's second line counts too")
        #expect(closed.orders["mangoJuice"] == JuiceTally(made: 0, cancelled: 1))
        #expect(closed.totals.made == 6 && closed.totals.cancelled == 1)
    }

    @Test func aPaymentAfterTheCloseLandsInTheNextReportAndLeavesThisOneAsItWas() throws {
        let closed = report(dayOrders)
        var paidLater = dayOrders
        paidLater[4].payment = Payment(method: .transfer, amount: 5_500, time: afterTheClose)
        #expect(report(paidLater, verifying: closed) == closed, "paid since the close: the report verifies as closed")

        var next = DayTally(juices: [], fruits: [], products: [], after: closed)
        #expect(next.earlierOrders == [4, 5], "the orders still owed are read again")
        next.add(earlier: 4, dayOrders[3])
        next.add(earlier: 5, paidLater[4])
        let nextReport = next.report(ReportChainTests.header)
        let takings = try #require(nextReport.takings)
        #expect(takings.gross == 5_500 && takings.methods["transfer"]?.net == 5_500 && takings.cashInDrawer == 0)
        #expect(takings.paidLate == [5])
        #expect(takings.unpaid == [] && takings.unpaidPickedUp == [],
                "the 바나나, listed as picked up unpaid the day before and paid by neither close, is let go")
        #expect(takings.juices == [:], "the 딸기 was sold the day before")

        var verifying = DayTally(verifying: nextReport, after: closed)
        verifying.add(earlier: 4, dayOrders[3])
        verifying.add(earlier: 5, paidLater[4])
        #expect(verifying.report(ReportChainTests.header) == nextReport)
    }

    @Test func anUnpaidOrderIsCarriedWhileItWaitsAndOnceMoreAfterItIsPickedUpUnpaid() throws {
        var queued = order(5, [CartLine(juice: "strawberryJuice")], status: .received)
        var reports = [report([queued])]
        #expect(reports[0].takings?.unpaid == [5] && reports[0].takings?.unpaidPickedUp == [])
        func nextReport(_ order: Order) -> ZReport {
            var tally = DayTally(juices: [], fruits: [], products: [], after: reports.last)
            #expect(tally.earlierOrders == reports.last?.takings?.unpaid)
            for id in tally.earlierOrders { tally.add(earlier: id, order) }
            return tally.report(ReportChainTests.header)
        }
        reports.append(nextReport(queued))
        #expect(reports[1].takings?.unpaid == [5], "still in the queue: carried on")
        queued.status = .pickedUp
        reports.append(nextReport(queued))
        #expect(reports[2].takings?.unpaid == [5] && reports[2].takings?.unpaidPickedUp == [5], "handed over unpaid: a warning")
        reports.append(nextReport(queued))
        #expect(reports[3].takings?.unpaid == [] && reports[3].takings?.unpaidPickedUp == [], "listed once, then let go")
        #expect(DayTally(juices: [], fruits: [], products: [], after: reports[3]).earlierOrders == [])
    }

    @Test func aRefundOfAnEarlierDaysOrderIsTheDayOfTheCancel() throws {
        var tally = DayTally(juices: [], fruits: [], products: [])
        var cancelled = order(7, [CartLine(juice: "mangoJuice", quantity: 2)], status: .cancelled, paid: .cash)
        cancelled.refund = cancelled.payment?.refunded(at: noon)
        tally.add(cancelLine(1, of: cancelled))
        #expect(tally.earlierOrders == [7])
        tally.add(earlier: 7, cancelled)
        let report = tally.report(ReportChainTests.header)
        let takings = try #require(report.takings)
        #expect(takings.gross == 0 && takings.refunds == 12_000 && takings.net == -12_000 && takings.cashInDrawer == -12_000)
        #expect(takings.vat == -Prices.vat(ofTotal: 12_000))
        #expect(report.orders["mangoJuice"] == JuiceTally(made: 0, cancelled: 2))
    }

    @Test func aPriceOrTotalChangedBehindTheShopChangesTheReport() {
        let closed = report(dayOrders)
        var cheaper = dayOrders
        cheaper[1].lines[0].unitPrice = 4_000
        cheaper[1].lines[0].amount = 4_000
        #expect(report(cheaper, verifying: closed).records != closed.records, "a line's price is in the digest")
        var lessTaken = dayOrders
        lessTaken[0].total = 20_000
        lessTaken[0].payment?.amount = 20_000
        let recomputed = report(lessTaken, verifying: closed)
        #expect(recomputed.records != closed.records && recomputed.takings != closed.takings)
        var unpaid = dayOrders
        unpaid[1].payment = nil
        #expect(report(unpaid, verifying: closed).takings?.gross == closed.takings!.gross - 5_000,
                "a payment wiped out is missing from the takings")
    }

    @Test func aReportWithoutTakingsIsRecomputedWithoutThem() {
        var old = report([])
        old.takings = nil
        #expect(report([], verifying: old).takings == nil)
        #expect(SealedReport(old).body.contains("takings") == false, "its text is as an older build wrote it")
    }
}
