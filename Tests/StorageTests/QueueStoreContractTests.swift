import Foundation
import JuiceBar
import ShopBasics
import Storage
import Testing

/// What every engine must do for the queue; each test runs on each engine (idempotent requests: `KeyedWriteContractTests`).
@Suite struct QueueStoreContractTests {
    @Test(arguments: Engine.available)
    func ordersAreNumberedAndKeepTheirStatusAcrossAReopen(_ engine: Engine) async throws {
        let shop = try await TestShop(engine, now: TestShop.clock(startingAt: TestShop.todayAtNoon))
        let store = shop.juiceBar
        let first = try await store.order("bananaJuice", actor: "m", member: nil, pickup: true).order
        let counter = try await store.order("kiwiJuice", actor: "g").order
        let second = try await store.order("mangoJuice", actor: "m", pickup: true).order
        let numbers: [Int] = [first.number, counter.number, second.number]
        #expect(numbers == [1, 2, 3])
        #expect(first.status == OrderStatus.received)
        #expect(counter.status == OrderStatus.pickedUp)
        let ready = try await store.move(order: first.id, to: .ready, actor: "staff:a")
        #expect(ready.status == .ready && ready.readyTime != nil)

        let reopened = try await shop.reopen().juiceBar
        #expect(try await reopened.order(id: first.id) == ready)
        #expect(try await reopened.order(id: counter.id) == counter)
        #expect(try await reopened.queue().map(\.id) == [first.id, second.id], "active orders, oldest first")
        #expect(try await reopened.order("bananaJuice", actor: "g", pickup: true).order.number == 4)
        #expect(try await reopened.averageReadySeconds() != nil)
    }

    @Test(arguments: Engine.available)
    func aCancelPutsTheFruitBackInTheSameCommitWithCancelLines(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        let before = try await store.stock().stock
        let order = try await store.order("strawberryBananaJuice", actor: "member:jimin", member: nil, pickup: true).order
        let receipt = try await store.cancel(order: order.id, by: .staff, actor: "staff:a")
        #expect(receipt.order.status == .cancelled)
        #expect(receipt.stock.stock == before)
        #expect(try await store.stock() == receipt.stock)
        let lines = try await store.ledger(limit: 2)
        #expect(lines.allSatisfy { $0.cause == .cancel && $0.orderID == order.id && $0.delta > 0 })
        #expect(Set(lines.map(\.fruit)) == ["strawberry", "banana"])
        #expect(try await store.queue().isEmpty)
        await #expect(throws: OrderError.cannotCancel(.cancelled)) {
            try await store.cancel(order: order.id, by: .staff, actor: "staff:a")
        }
        await #expect(throws: OrderError.unknownOrder(999)) { try await store.move(order: 999, to: .ready, actor: "s") }
    }

    @Test(arguments: Engine.available)
    func concurrentOrdersAndMovesGetDistinctNumbersAndNoMoveIsLost(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        _ = try await store.deliver("banana", count: 100, actor: "t")
        let orders = try await withThrowingTaskGroup(of: Order.self) { group in
            for _ in 0..<40 { group.addTask { try await store.order("bananaJuice", actor: "t", pickup: true).order } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(orders.map(\.number)) == Set(1...40))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for order in orders { group.addTask { _ = try await store.move(order: order.id, to: .making, actor: "s") } }
            try await group.waitForAll()
        }
        #expect(try await store.queue().allSatisfy { $0.status == .making })
    }

    @Test(arguments: Engine.available)
    func numbersStartAgainOnTheNextShopDay(_ engine: Engine) async throws {
        let noon = TestShop.todayAtNoon
        let shop = try await TestShop(engine, now: TestShop.clock(startingAt: noon))
        _ = try await shop.juiceBar.order("kiwiJuice", actor: "t")
        let tomorrow = try await ShopDatabase.open(shop.location, now: TestShop.clock(startingAt: noon + 86_400))
        let order = try await tomorrow.juiceBar.order("kiwiJuice", actor: "t").order
        #expect(order.number == 1)
        #expect(order.day == ShopCalendar().dayText(of: noon + 86_400))
        await tomorrow.close()
    }

    @Test(arguments: Engine.available)
    func exportsReadPageAfterPageOldestFirstWithinTheirPeriod(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        let made = try await (0..<5).asyncMap { _ in try await store.order("bananaJuice", actor: "t").order }
        let firstPage = try await store.orders(in: ExportWindow(limit: 2))
        let secondPage = try await store.orders(in: ExportWindow(after: firstPage.last!.id, limit: 2))
        #expect((firstPage + secondPage).map(\.id) == made.prefix(4).map(\.id))
        #expect(try await store.orders(in: ExportWindow(until: made[0].time)).isEmpty, "until is exclusive")
        #expect(try await store.orders(in: ExportWindow(from: made[4].time + 1)).isEmpty)
        #expect(try await store.orders(in: ExportWindow(from: made[0].time, until: made[4].time + 1)).count == 5)
        #expect(try await store.ledger(in: ExportWindow()).map(\.cause).filter { $0 == .order }.count == 5)
        _ = try await shop.vending.insert(5_000, actor: "t", at: Date())
        let sale = try await shop.vending.purchase("cola", actor: "t", at: Date()).sale
        #expect(try await shop.vending.sales(in: ExportWindow()).map(\.id) == [sale.id])
    }

    @Test(arguments: Engine.available)
    func aReorderLevelIsKeptWithTheFruit(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let commit = try await shop.juiceBar.commit(.setLevel("kiwi", 7), actor: "staff:a")
        #expect(commit.menu.fruit("kiwi")?.level == 7)
        let reopened = try await shop.reopen().juiceBar
        #expect(try await reopened.menu().fruit("kiwi")?.level == 7)
        _ = try await reopened.order("kiwiJuice", actor: "t")  // kiwi 10 → 7: at the level
        let menu = try await reopened.menu()
        #expect(menu.lowFruits(in: try await reopened.stock().stock).map(\.id) == ["kiwi"])
    }
}

extension Sequence {
    /// Each element's value in turn, one after another.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var values: [T] = []
        for element in self { values.append(try await transform(element)) }
        return values
    }
}
