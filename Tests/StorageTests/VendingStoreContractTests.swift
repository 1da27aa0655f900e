import Foundation
import Storage
import Testing
import VendingMachine

/// What every engine's `VendingStore` must do; each test runs on each engine.
@Suite struct VendingStoreContractTests {
    let now = TestShop.now()

    @Test(arguments: Engine.available)
    func aNewMachineHoldsFiveOfEachAndNoMoney(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.vending
        let state = try await store.state(at: now)
        #expect(state.products.count == 9)
        #expect(state.products.allSatisfy { $0.stock == 5 && $0.expired == 0 })
        #expect(state.money == MoneyTotals())
    }

    @Test(arguments: Engine.available)
    func aPurchaseTakesTheOldestItemAndThePrice(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.vending
        _ = try await store.restock("cola", count: 1, manufactured: now.addingTimeInterval(-10 * 86_400), actor: "t", at: now)
        _ = try await store.insert(5_000, actor: "t", at: now)
        let receipt = try await store.purchase("cola", actor: "t", at: now)
        #expect(receipt.item.manufactured < now.addingTimeInterval(-9 * 86_400))
        #expect(receipt.state.money.balance == 3_000)
        #expect(receipt.product.id == "cola")
        #expect(receipt.state.products.first { $0.product.id == "cola" }?.stock == 5)
        #expect(try await store.history(limit: nil).map(\.product) == ["cola"])
        #expect(try await store.sales().first { $0.product == "cola" } == ProductSales(product: "cola", units: 1, won: 2_000))
    }

    @Test(arguments: Engine.available)
    func aPurchaseOfAProductIdTheDatabaseCannotStoreIsRefusedAloneInItsBatch(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.vending
        for _ in 0..<5 { _ = try await store.insert(10_000, actor: "t", at: now) }
        for product: ProductID in ["cola", "cider", "fanta"] {
            _ = try await store.restock(product, count: 10, manufactured: now, actor: "t", at: now)
        }
        let now = self.now
        // Sent together, so they share batches: an id with a NUL (which PostgreSQL refuses as
        // text) must be refused as unknown without failing the purchases beside it.
        let results = await withTaskGroup(of: (ProductID, Result<PurchaseReceipt, any Error>).self) { group in
            for product: ProductID in Array(repeating: ["co\u{0}la", "cola", "cider", "fanta"], count: 6).flatMap({ $0 }) {
                group.addTask {
                    do {
                        return (product, .success(try await store.purchase(product, actor: "t", at: now)))
                    } catch {
                        return (product, .failure(error))
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for (product, result) in results {
            if product.contains("\u{0}") {
                #expect(throws: VendingError.unknownProduct(product)) { try result.get() }
            } else {
                #expect((try? result.get()) != nil, "\(product) was refused")
            }
        }
        #expect(try await store.history(limit: nil).count == 18)
    }

    @Test(arguments: Engine.available)
    func refusalsChangeNothing(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.vending
        let before = try await store.state(at: now)
        await #expect(throws: VendingError.insufficientBalance(price: 2_000, balance: 0)) {
            try await store.purchase("cola", actor: "t", at: now)
        }
        await #expect(throws: VendingError.unknownProduct("water")) { try await store.purchase("water", actor: "t", at: now) }
        await #expect(throws: VendingError.invalidDenomination(300)) { try await store.insert(300, actor: "t", at: now) }
        await #expect(throws: VendingError.invalidCount(0)) {
            try await store.restock("cola", count: 0, manufactured: now, actor: "t", at: now)
        }
        #expect(try await store.state(at: now) == before)
        #expect(try await store.history(limit: nil).isEmpty)
    }

    @Test(arguments: Engine.available)
    func soldOutAndExpiredOnlyAreRefusedWithTheirReason(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.vending
        for _ in 0..<2 { _ = try await store.insert(10_000, actor: "t", at: now) }
        for _ in 0..<5 { _ = try await store.purchase("bananaMilk", actor: "t", at: now) }
        await #expect(throws: VendingError.soldOut("bananaMilk")) { try await store.purchase("bananaMilk", actor: "t", at: now) }

        let longAgo = now.addingTimeInterval(-400 * 86_400)
        let state = try await store.restock("bananaMilk", count: 2, manufactured: longAgo, actor: "t", at: now)
        #expect(state.products.first { $0.product.id == "bananaMilk" }.map { ($0.stock, $0.expired) } ?? (0, 0) == (0, 2))
        await #expect(throws: VendingError.expired("bananaMilk")) { try await store.purchase("bananaMilk", actor: "t", at: now) }
        #expect(try await store.expiredItems(at: now).map(\.product) == ["bananaMilk", "bananaMilk"])
    }

    @Test(arguments: Engine.available)
    func changeEmptiesTheBalance(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.vending
        _ = try await store.insert(5_000, actor: "t", at: now)
        _ = try await store.insert(1_000, actor: "t", at: now)
        _ = try await store.purchase("georgia", actor: "t", at: now)
        let receipt = try await store.returnChange(actor: "t", at: now)
        #expect(receipt.change.returned == 4_500)
        #expect(receipt.change.units == [1_000: 4, 500: 1])
        #expect(receipt.state.money.balance == 0)
        #expect(receipt.state.money.isConserved)
    }

    /// Many customers at once on one machine, through two connection pools (two servers): money is never lost
    /// or made and the balance never goes below zero.
    @Test(arguments: Engine.available)
    func concurrentUseConservesMoney(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.vending
        let other = try await shop.reopen().vending
        for product in Catalog.products { _ = try await store.restock(product.id, count: 50, manufactured: now, actor: "t", at: now) }
        let stores = [store, other]
        let outcomes = try await withThrowingTaskGroup(of: (inserted: Int, spent: Int).self) { group in
            for index in 0..<300 {
                let store = stores[index % 2]
                let product = Catalog.products[index % Catalog.products.count]
                group.addTask {
                    if index % 3 == 0 {
                        do {
                            _ = try await store.insert(5_000, actor: "t\(index)", at: now)
                            return (5_000, 0)
                        } catch VendingError.balanceCapExceeded { return (0, 0) }
                    }
                    do {
                        return (0, try await store.purchase(product.id, actor: "t\(index)", at: now).sale.price)
                    } catch let error as VendingError where error.isRefusal {
                        return (0, 0)
                    }
                }
            }
            return try await group.reduce(into: [(inserted: Int, spent: Int)]()) { $0.append($1) }
        }
        let final = try await store.state(at: now)
        #expect(final.money.isConserved)
        #expect(final.money.inserted == outcomes.map(\.inserted).reduce(0, +))
        #expect(final.money.spent == outcomes.map(\.spent).reduce(0, +))
        #expect(try await store.sales().map(\.won).reduce(0, +) == final.money.spent)
        let sold = outcomes.filter { $0.spent > 0 }.count
        #expect(try await store.history(limit: nil).count == sold)
        #expect(final.products.map(\.stock).reduce(0, +) == 9 * 55 - sold)
    }
}
