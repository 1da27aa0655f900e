import Foundation
import JuiceBar
import ShopBasics
import Testing

@Suite struct OrderStatusTests {
    @Test func anOrderMovesOnlyForwardOneStepOrMore() {
        #expect(OrderStatus.received.canMove(to: .making))
        #expect(OrderStatus.received.canMove(to: .ready))
        #expect(OrderStatus.received.canMove(to: .pickedUp))
        #expect(OrderStatus.making.canMove(to: .pickedUp))
        #expect(!OrderStatus.making.canMove(to: .received))
        #expect(!OrderStatus.ready.canMove(to: .ready))
        #expect(!OrderStatus.pickedUp.canMove(to: .ready))
        #expect(!OrderStatus.received.canMove(to: .cancelled), "a cancel is not a move")
        #expect(!OrderStatus.cancelled.canMove(to: .making))
    }

    @Test func theWaitCountsTheDrinksAheadAndTheNewOne() {
        #expect(OrderRules.waitMinutes(ahead: 0, averageSeconds: 90) == 2)
        #expect(OrderRules.waitMinutes(ahead: 2, averageSeconds: 60) == 3)
        #expect(OrderRules.waitMinutes(ahead: 0, averageSeconds: 1) == 1, "never less than a minute")
        #expect(OrderRules.waitMinutes(ahead: 1, averageSeconds: nil) == 4, "two minutes a drink before any was ready")
    }
}

@Suite struct QueueBookTests {
    let seoul = ShopCalendar(timeZone: TimeZone(identifier: "Asia/Seoul")!)
    /// 2026-11-24 23:30 in Seoul.
    let lateEvening = Date(timeIntervalSince1970: 1_795_530_600)

    func book(orders: [Order] = []) -> JuiceBarBook {
        JuiceBarBook(menu: .seed, stock: Stock(["strawberry": 20, "banana": 10, "kiwi": 10]),
                     orders: Dictionary(uniqueKeysWithValues: orders.map { ($0.id, $0) }), calendar: seoul)
    }

    func queued(_ id: Int64, _ status: OrderStatus, member: Int64? = 7) -> Order {
        Order(id: id, juice: "strawberryBananaJuice", time: lateEvening, actor: "member:jimin", number: Int(id),
              day: "2026-11-24", status: status, pickup: true, member: member)
    }

    @Test func numbersGoOnWithinADayAndStartAgainAtTheShopsMidnight() throws {
        var book = book()
        book.lastNumbers["2026-11-24"] = 41
        let before = try book.decide(.order(.cup(of: "kiwiJuice", member: nil, pickup: true)), actor: "guest", at: lateEvening)
        let counter = try book.decide(.order(.cup(of: "kiwiJuice")), actor: "guest", at: lateEvening)
        let afterMidnight = try book.decide(.order(.cup(of: "kiwiJuice")), actor: "guest", at: lateEvening + 3600)
        #expect(before.order?.number == 42 && before.order?.day == "2026-11-24")
        #expect(counter.order?.number == 43, "counter and pickup orders share the numbers")
        #expect(afterMidnight.order?.number == 1 && afterMidnight.order?.day == "2026-11-25")
    }

    @Test func aDayIsWrittenWithItsZerosAndReadBack() throws {
        let calendar = ShopCalendar(timeZone: TimeZone(identifier: "Asia/Seoul")!)
        let early = try #require(calendar.day("0987-03-05"))
        #expect(calendar.dayText(of: early) == "0987-03-05")
        #expect(calendar.dayText(of: early - 1) == "0987-03-04")
        #expect(calendar.dayText(of: Date(timeIntervalSince1970: 1_795_000_000)) == "2026-11-18")
    }

    @Test func aPickupOrderIsReceivedAndACounterOrderPickedUpAtOnce() throws {
        var book = book()
        let pickup = try #require(try book.decide(.order(.cup(of: "kiwiJuice", member: 7, pickup: true)), actor: "m", at: lateEvening).order)
        let counter = try #require(try book.decide(.order(.cup(of: "kiwiJuice")), actor: "g", at: lateEvening).order)
        #expect(pickup.status == .received && pickup.readyTime == nil && pickup.pickup && pickup.member == 7)
        #expect(counter.status == .pickedUp && counter.readyTime == lateEvening && !counter.pickup)
        #expect(book.stock["kiwi"] == 4, "both took their fruit when accepted")
    }

    @Test func aMoveNotesWhenTheJuiceWasReady() throws {
        var book = book(orders: [queued(1, .received)])
        let making = try book.decide(.move(order: 1, to: .making), actor: "staff:a", at: lateEvening + 60)
        #expect(making.changedOrder?.status == .making && making.changedOrder?.readyTime == nil)
        let ready = try book.decide(.move(order: 1, to: .ready), actor: "staff:a", at: lateEvening + 200)
        #expect(ready.changedOrder?.readyTime == lateEvening + 200)
        let pickedUp = try book.decide(.move(order: 1, to: .pickedUp), actor: "staff:a", at: lateEvening + 300)
        #expect(pickedUp.changedOrder?.readyTime == lateEvening + 200, "ready once, whenever it is picked up")
        #expect(pickedUp.ledger.isEmpty && pickedUp.counts.isEmpty, "a move touches no fruit")
    }

    @Test func aRefusedMoveNamesTheCurrentStatusAndChangesNothing() throws {
        var book = book(orders: [queued(1, .ready)])
        let before = book
        #expect(throws: OrderError.cannotMove(from: .ready, to: .making)) {
            try book.decide(.move(order: 1, to: .making), actor: "s", at: lateEvening)
        }
        #expect(throws: OrderError.unknownOrder(2)) { try book.decide(.move(order: 2, to: .ready), actor: "s", at: lateEvening) }
        #expect(book == before)
    }

    @Test func aCancelPutsTheRecipesFruitBackWithCancelLines() throws {
        var book = book(orders: [queued(5, .received)])
        let plan = try book.decide(.cancel(order: 5, by: .member(7)), actor: "member:jimin", at: lateEvening + 30)
        #expect(plan.changedOrder?.status == .cancelled)
        #expect(book.stock["strawberry"] == 30 && book.stock["banana"] == 11)
        #expect(plan.counts == ["strawberry": 30, "banana": 11])
        #expect(plan.ledger.map(\.delta) == [10, 1])
        #expect(plan.ledger.allSatisfy { $0.cause == .cancel && $0.orderID == 5 && $0.juice == "strawberryBananaJuice" })
        #expect(throws: OrderError.cannotCancel(.cancelled)) {
            try book.decide(.cancel(order: 5, by: .staff), actor: "s", at: lateEvening + 40)
        }
    }

    @Test func aMemberCancelsOnlyTheirOwnOrderWhileReceivedAndStaffUntilReady() throws {
        var book = book(orders: [queued(1, .received), queued(2, .making), queued(3, .ready), queued(4, .received, member: 8)])
        #expect(throws: OrderError.notYours(4)) { try book.decide(.cancel(order: 4, by: .member(7)), actor: "m", at: lateEvening) }
        #expect(throws: OrderError.cannotCancel(.making)) {
            try book.decide(.cancel(order: 2, by: .member(7)), actor: "m", at: lateEvening)
        }
        #expect(throws: OrderError.cannotCancel(.ready)) { try book.decide(.cancel(order: 3, by: .staff), actor: "s", at: lateEvening) }
        _ = try book.decide(.cancel(order: 2, by: .staff), actor: "s", at: lateEvening)
        _ = try book.decide(.cancel(order: 1, by: .member(7)), actor: "m", at: lateEvening)
    }

    @Test func aCancelThatWouldOverfillTheStockIsRefused() throws {
        var book = book(orders: [queued(1, .received)])
        book.stock["strawberry"] = StockLimits.count.upperBound - 5
        #expect(throws: JuiceBarError.countOutOfRange(StockLimits.count.upperBound + 5)) {
            try book.decide(.cancel(order: 1, by: .staff), actor: "s", at: lateEvening)
        }
        #expect(book.orders[1]?.status == .received)
    }
}
