import DayClose
import Foundation
import JuiceBar
import Testing
import VendingMachine

@Suite struct ReportChainTests {
    @Test func hashesAreSHA256InLowercaseHex() {
        // FIPS 180-2's examples.
        #expect(ReportChain.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ReportChain.sha256("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(ReportChain.genesis.count == 64)
    }

    @Test func canonicalJSONSortsKeysAndLeavesSlashesAlone() {
        #expect(ReportChain.canonicalJSON(["b": 1, "a": 2, "c/d": 3]) == #"{"a":2,"b":1,"c/d":3}"#)
    }

    @Test func aSealedReportIsItsOwnBodyHashedAndReadsBack() throws {
        let report = DayTally(juices: ["kiwiJuice"], fruits: ["kiwi"], products: [])
            .report(Self.header)
        let sealed = SealedReport(report)
        #expect(sealed.hash == ReportChain.sha256(sealed.body))
        #expect(sealed.body.contains(#""previousHash":"\#(ReportChain.genesis)""#))
        #expect(try SealedReport(body: sealed.body, hash: sealed.hash) == sealed)
        var next = report
        next.previousHash = sealed.hash
        #expect(SealedReport(next).hash != sealed.hash, "the link to the report before is part of the hash")
    }

    static let header = ReportHeader(
        number: 1, day: "2026-11-25", since: nil, closedAt: "2026-11-25T22:00:00+09:00", through: RecordMarks(orders: 9, ledger: 9, money: 9, sales: 9),
        previousHash: ReportChain.genesis)
}

@Suite struct DayTallyTests {
    let noon = Date(timeIntervalSince1970: 1_795_575_600)

    func order(_ id: Int64, _ juice: String, status: OrderStatus = .pickedUp) -> Order {
        Order(id: id, juice: JuiceID(juice), time: noon, actor: "staff", number: Int(id), day: "2026-11-25", status: status)
    }

    func line(_ id: Int64, _ fruit: String, _ delta: Int, _ cause: StockChangeCause, order: Int64? = nil,
              after count: Int = 10) -> LedgerEntry {
        LedgerEntry(id: id, time: noon, fruit: FruitID(fruit), delta: delta, countAfter: count, cause: cause,
                    juice: order.map { _ in JuiceID("strawberryJuice") }, orderID: order, actor: "staff")
    }

    /// Two strawberry juices, the second cancelled; a delivery; a kiwi juice still being made.
    func aDay(_ tally: inout DayTally, secondJuice: String = "strawberryJuice") {
        tally.add(line(1, "strawberry", -16, .order, order: 1))
        tally.add(line(2, "strawberry", -16, .order, order: 2))
        tally.add(line(3, "strawberry", 16, .cancel, order: 2))
        tally.add(line(4, "kiwi", 20, .delivery))
        tally.add(line(5, "kiwi", -3, .order, order: 3))
        tally.add(order(1, "strawberryJuice"))
        tally.add(order(2, secondJuice, status: .cancelled))
        tally.add(order(3, "kiwiJuice", status: .making))
        tally.add(MoneyLine(id: 1, time: noon, movement: MoneyMovement(kind: .insert, amount: 5000, balanceAfter: 5000), actor: "g"))
        tally.add(MoneyLine(id: 2, time: noon, movement: MoneyMovement(kind: .spend, amount: 1200, balanceAfter: 3800), actor: "g"))
        tally.add(MoneyLine(id: 3, time: noon, movement: MoneyMovement(kind: .return, amount: 3800, balanceAfter: 0), actor: "g"))
        tally.add(Sale(id: 1, product: "cola", price: 1200, time: noon, itemID: 7))
    }

    @Test func theReportAddsUpTheDay() {
        var tally = DayTally(juices: ["strawberryJuice", "kiwiJuice", "mangoJuice"], fruits: ["strawberry", "kiwi", "mango"],
                             products: ["cola", "cider"])
        aDay(&tally)
        let report = tally.report(ReportChainTests.header)
        #expect(report.orders["strawberryJuice"] == JuiceTally(made: 1, cancelled: 1))
        #expect(report.orders["kiwiJuice"] == JuiceTally(made: 1, cancelled: 0))
        #expect(report.orders["mangoJuice"] == JuiceTally(), "a juice nobody ordered is listed at zero")
        #expect(report.fruits == ["strawberry": 16, "kiwi": 3, "mango": 0], "a cancel gives its fruit back; deliveries are not use")
        #expect(report.money == MoneyTally(inserted: 5000, spent: 1200, returned: 3800, balance: 0))
        #expect(report.sales == ["cola": ProductTally(units: 1, won: 1200), "cider": ProductTally()])
        #expect(report.totals == ReportTotals(made: 2, cancelled: 1, fruitUsed: 19, units: 1, won: 1200))
        #expect(report.open == [3], "the kiwi juice was still being made")
    }

    /// The counts at the close are each fruit's newest line's, and the balance the newest money
    /// line's; a fruit or a machine the day did not touch keeps what the report before closed with.
    @Test func theCountsAtTheCloseCarryOnFromTheReportBeforeThroughTheDaysLines() {
        var before = DayTally(juices: [], fruits: [], products: [])
        before.add(line(1, "strawberry", 30, .delivery, after: 30))
        before.add(line(2, "mango", 5, .delivery, after: 5))
        before.add(MoneyLine(id: 1, time: noon, movement: MoneyMovement(kind: .insert, amount: 2000, balanceAfter: 2000), actor: "g"))
        let previous = before.report(ReportChainTests.header)
        #expect(previous.counts == ["strawberry": 30, "mango": 5])
        #expect(previous.money.balance == 2000)

        let quiet = DayTally(juices: [], fruits: [], products: [], after: previous)
        #expect(quiet.report(ReportChainTests.header).counts == previous.counts)
        #expect(quiet.report(ReportChainTests.header).money.balance == 2000)

        var day = DayTally(juices: [], fruits: [], products: [], after: previous)
        day.add(line(3, "strawberry", -16, .order, order: 1, after: 14))
        day.add(line(4, "kiwi", 20, .delivery, after: 20))
        day.add(line(5, "strawberry", -2, .edit, after: 12))
        day.add(MoneyLine(id: 2, time: noon, movement: MoneyMovement(kind: .insert, amount: 1000, balanceAfter: 3000), actor: "g"))
        day.add(MoneyLine(id: 3, time: noon, movement: MoneyMovement(kind: .spend, amount: 1200, balanceAfter: 1800), actor: "g"))
        let report = day.report(ReportChainTests.header)
        #expect(report.counts == ["strawberry": 12, "mango": 5, "kiwi": 20])
        #expect(report.money.balance == 1800)
    }

    @Test func anOrderIsCancelledByItsLedgerLinesNotByItsStatus() {
        var tally = DayTally(juices: [], fruits: [], products: [])
        tally.add(line(1, "strawberry", -16, .order, order: 1))
        tally.add(order(1, "strawberryJuice", status: .cancelled))
        let report = tally.report(ReportChainTests.header)
        #expect(report.orders["strawberryJuice"] == JuiceTally(made: 1, cancelled: 0),
                "cancelled after the close: its cancel lines lie beyond the report")
    }

    @Test func aCancelOfAnOrderAnEarlierReportCountedIsCancelledHereAndGivesItsFruitBack() {
        var tally = DayTally(juices: [], fruits: [], products: [])
        tally.add(line(9, "strawberry", 16, .cancel, order: 1))
        tally.add(line(10, "strawberry", 16, .cancel, order: 1))
        tally.add(line(11, "strawberry", -16, .order, order: 12))
        tally.add(order(12, "strawberryJuice"))
        #expect(tally.earlierOrders == [1], "the cancelled order is read from the store, to count its cups")
        tally.add(earlier: 1, order(1, "strawberryJuice", status: .cancelled))
        let report = tally.report(ReportChainTests.header)
        #expect(report.orders["strawberryJuice"] == JuiceTally(made: 1, cancelled: 1), "one cancel, however many lines")
        #expect(report.fruits["strawberry"] == -16, "fruit used is net of what came back")
    }

    @Test func theSameRecordsMakeTheSameReportAndAnyEditChangesIt() {
        func report(secondJuice: String = "strawberryJuice", open: [Int64]? = nil, edit: (inout DayTally) -> Void = { _ in }) -> ZReport {
            var tally = DayTally(juices: ["strawberryJuice"], fruits: [], products: [], open: open)
            aDay(&tally, secondJuice: secondJuice)
            edit(&tally)
            return tally.report(ReportChainTests.header)
        }
        let closed = report()
        #expect(report() == closed)
        #expect(report(open: closed.open) == closed, "verifying with the stored open orders gives the same report")
        #expect(report(secondJuice: "kiwiJuice").records != closed.records)
        #expect(report(edit: { $0.add(Sale(id: 2, product: "cola", price: 0, time: noon, itemID: 8)) }).records != closed.records)
    }

    @Test func anOpenOrderMayMoveOnAfterTheCloseButAFinishedOneMayNot() {
        func records(thirdStatus: OrderStatus, firstStatus: OrderStatus = .pickedUp) -> String {
            var tally = DayTally(juices: [], fruits: [], products: [], open: [3])
            tally.add(order(1, "strawberryJuice", status: firstStatus))
            tally.add(order(3, "kiwiJuice", status: thirdStatus))
            return tally.report(ReportChainTests.header).records
        }
        #expect(records(thirdStatus: .making) == records(thirdStatus: .pickedUp))
        #expect(records(thirdStatus: .making) == records(thirdStatus: .cancelled))
        #expect(records(thirdStatus: .making) != records(thirdStatus: .making, firstStatus: .ready))
    }
}
