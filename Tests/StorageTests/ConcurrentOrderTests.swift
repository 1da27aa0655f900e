import Foundation
import JuiceBar
import Storage
import Testing

/// Many orders at once, through two separate connection pools on one database (as two
/// processes or servers would have), then the totals must reconcile exactly.
@Suite struct ConcurrentOrderTests {
    @Test(arguments: Engine.available)
    func concurrentOrdersNeverOversellAndAlwaysReconcile(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let stores = [shop.juiceBar, try await shop.reopen().juiceBar]
        let menu = Menu.seed
        for fruit in menu.fruits { _ = try await stores[0].setStock(fruit.id, to: 100, actor: "test") }
        let initial = try await stores[0].stock().stock

        let accepted = try await withThrowingTaskGroup(of: JuiceID?.self) { group in
            for index in 0..<400 {
                let juice = menu.juices[index % menu.juices.count].id
                let store = stores[index % stores.count]
                group.addTask {
                    do {
                        return try await store.order(juice, actor: "task\(index)").order.juice
                    } catch is OutOfStock {
                        return nil
                    }
                }
            }
            return try await group.reduce(into: [JuiceID]()) { if let juice = $1 { $0.append(juice) } }
        }

        var expected = initial
        for juiceID in accepted {
            for ingredient in try menu.requireJuice(juiceID).recipe { expected[ingredient.fruit] -= ingredient.amount }
        }
        let final = try await stores[1].stock().stock
        #expect(final == expected)
        #expect(final.counts.values.allSatisfy { $0 >= 0 })
        let orders = try await stores[0].orders(limit: nil)
        #expect(orders.count == accepted.count)
        // Both connections numbered orders, each from the day's last number in its own batch's
        // transaction: every day's numbers run from 1 without a gap, and none is given twice.
        for (day, ofTheDay) in Dictionary(grouping: orders, by: \.day) {
            #expect(ofTheDay.map(\.number).sorted() == Array(1...ofTheDay.count), "\(day)")
        }
        // Stock ran out: some orders were refused, and what is left cannot make the refused juices.
        #expect(accepted.count < 400)
        let ledger = try await stores[0].ledger(limit: nil)
        let ledgerSums = ledger.reduce(into: [FruitID: Int]()) { $0[$1.fruit, default: 0] += $1.delta }
        #expect(Stock(ledgerSums) == final)
        // Each order's ledger lines name it and take its own juice's recipe, whichever batch (and
        // which insert of its batch) stored them.
        let linesOfOrder = Dictionary(grouping: ledger.filter { $0.cause == .order }, by: \.orderID)
        for order in orders {
            let taken = (linesOfOrder[order.id] ?? []).filter { $0.juice == order.juice }
                .map { "\($0.fruit.rawValue) \(-$0.delta)" }.sorted()
            let recipe = try menu.requireJuice(order.juice).recipe.map { "\($0.fruit.rawValue) \($0.amount)" }.sorted()
            #expect(taken == recipe && linesOfOrder[order.id]?.count == recipe.count, "order \(order.id)")
        }
    }
}
