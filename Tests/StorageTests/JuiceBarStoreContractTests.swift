import Foundation
import JuiceBar
import Storage
import Testing

/// What every engine's `JuiceBarStore` must do; each test runs on each engine.
@Suite struct JuiceBarStoreContractTests {
    /// Everything a refused operation must leave as it was.
    struct Snapshot: Equatable {
        let stock: Stock
        let orders: [Order]
        let ledger: [LedgerEntry]
    }

    func snapshot(_ store: any JuiceBarStore) async throws -> Snapshot {
        Snapshot(stock: try await store.stock().stock, orders: try await store.orders(limit: nil),
                 ledger: try await store.ledger(limit: nil))
    }

    @Test(arguments: Engine.available)
    func aNewShopHasTheSeedMenuAndTenOfEachFruit(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        #expect(try await store.menu() == Menu.seed)
        #expect(try await store.stock().stock == Stock(["strawberry": 10, "banana": 10, "pineapple": 10, "kiwi": 10, "mango": 10]))
    }

    @Test(arguments: Engine.available)
    func anOrderDeductsTheRecipeAndRecordsOrderAndLedger(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        let receipt = try await store.order("strawberryBananaJuice", actor: "test")
        #expect(receipt.stock.stock["strawberry"] == 0)
        #expect(receipt.stock.stock["banana"] == 9)
        #expect(try await store.stock().stock == receipt.stock.stock)
        #expect(try await store.orders(limit: nil).map(\.juice) == ["strawberryBananaJuice"])
        let entries = try await store.ledger(limit: 2)
        #expect(Set(entries.map(\.fruit)) == ["strawberry", "banana"])
        #expect(entries.allSatisfy { $0.cause == .order && $0.orderID == receipt.order.id && $0.actor == "test" })
    }

    @Test(arguments: Engine.available)
    func aShortageChangesNothing(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        let before = try await snapshot(store)
        let refusal = await #expect(throws: OutOfStock.self) { try await store.order("strawberryJuice", actor: "test") }
        #expect(refusal?.shortages == [Shortage(fruit: "strawberry", needed: 16, available: 10)])
        #expect(try await snapshot(store) == before)
    }

    @Test(arguments: Engine.available)
    func badInputIsRefusedAndChangesNothing(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        let before = try await snapshot(store)
        await #expect(throws: SaleError.unknownJuice("lemonJuice")) { try await store.order("lemonJuice", actor: "t") }
        await #expect(throws: JuiceBarError.unknownFruit("grape")) { try await store.setStock("grape", to: 1, actor: "t") }
        await #expect(throws: JuiceBarError.countOutOfRange(-1)) { try await store.setStock("kiwi", to: -1, actor: "t") }
        await #expect(throws: JuiceBarError.countOutOfRange(1_000_001)) {
            try await store.setStock("kiwi", to: 1_000_001, actor: "t")
        }
        await #expect(throws: JuiceBarError.countOutOfRange(1_000_005)) {
            try await store.deliver("kiwi", count: 999_995, actor: "t")
        }
        #expect(try await snapshot(store) == before)
    }

    @Test(arguments: Engine.available)
    func editsAndDeliveriesAreLedgeredWithTheirCause(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        _ = try await store.setStock("kiwi", to: 4, actor: "admin")
        let stock = try await store.deliver("kiwi", count: 20, actor: "admin").stock
        #expect(stock["kiwi"] == 24)
        let entries = try await store.ledger(limit: 2)
        #expect(entries.map(\.cause) == [.delivery, .edit])
        #expect(entries.map(\.delta) == [20, -6])
        #expect(entries.map(\.countAfter) == [24, 4])
    }

    @Test(arguments: Engine.available)
    func theLedgerExplainsEveryCount(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        _ = try await store.order("mangoKiwiJuice", actor: "t")
        _ = try await store.setStock("banana", to: 3, actor: "t")
        _ = try await store.deliver("mango", count: 7, actor: "t")
        let sums = try await store.ledger(limit: nil).reduce(into: [FruitID: Int]()) { $0[$1.fruit, default: 0] += $1.delta }
        #expect(Stock(sums) == (try await store.stock().stock))
    }

    @Test(arguments: Engine.available)
    func newFruitsAndJuicesAreDataThatOutlivesTheProcess(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        _ = try await store.addFruit(Fruit(id: "grape", name: .init(ko: "포도", en: "Grape"), emoji: "🍇"), count: 9, actor: "t")
        _ = try await store.addJuice(Juice(id: "grapeJuice", name: .init(ko: "포도쥬스", en: "Grape Juice"),
                                           recipe: [.init(fruit: "grape", amount: 3)]))
        let reopened = try await shop.reopen().juiceBar
        #expect(try await reopened.menu().juices.last?.id == "grapeJuice")
        #expect(try await reopened.order("grapeJuice", actor: "t").stock.stock["grape"] == 6)
        await #expect(throws: JuiceBarError.duplicate("grapeJuice")) {
            try await reopened.addJuice(Juice(id: "grapeJuice", name: .init(ko: "포도", en: "Grape"),
                                              recipe: [.init(fruit: "grape", amount: 1)]))
        }
    }

    /// 메뉴 관리: a price, option groups, 품절 and retirement are stored and read back by every
    /// server after a restart; an order made before keeps its juice when the juice is retired.
    @Test(arguments: Engine.available)
    func menuEditsAndOptionGroupsOutliveTheProcess(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        let made = try await store.order("mangoJuice", actor: "t").order
        let extras = MenuOptionGroup(id: "extra", name: .init(ko: "추가", en: "Extras"), min: 0, max: 2, options: [
            MenuOption(id: "yogurt", name: .init(ko: "요거트 추가", en: "Add yogurt"), price: 500,
                       adds: [.init(fruit: "banana", amount: 1)]),
            MenuOption(id: "honey", name: .init(ko: "꿀 추가", en: "Honey"), price: 300),
        ])
        _ = try await store.commit(.putOptionGroup(extras), actor: "staff")
        _ = try await store.commit(.editJuice("kiwiJuice", JuiceEdit(
            name: .init(ko: "골드키위쥬스", en: "Gold Kiwi Juice"), price: 5_800, recipe: [.init(fruit: "kiwi", amount: 4)],
            optionGroups: ["size", "extra"], soldOut: true)), actor: "staff")
        _ = try await store.commit(.retireJuice("mangoJuice"), actor: "staff")
        var dearer = extras
        dearer.options[1].price = 400
        _ = try await store.commit(.putOptionGroup(dearer), actor: "staff")

        let menu = try await shop.reopen().juiceBar.menu()
        let kiwi = try #require(menu.juice("kiwiJuice"))
        #expect(kiwi.name.ko == "골드키위쥬스" && kiwi.price == 5_800 && kiwi.soldOut && !kiwi.retired)
        #expect(kiwi.recipe == [.init(fruit: "kiwi", amount: 4)] && kiwi.optionGroups == ["size", "extra"])
        #expect(menu.optionGroups.map(\.id) == ["size", "ice", "sweetness", "extra"])
        #expect(menu.optionGroup("extra") == dearer)
        #expect(menu.juice("mangoJuice")?.retired == true && !menu.onSale.contains { $0.id == "mangoJuice" })
        #expect(try await store.order(id: made.id)?.juice == "mangoJuice")
        await #expect(throws: SaleError.soldOut("kiwiJuice")) { try await store.order("kiwiJuice", actor: "t") }
    }

    @Test(arguments: Engine.available)
    func listsAreNewestFirstAndLimited(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        for juice: JuiceID in ["bananaJuice", "kiwiJuice", "mangoJuice"] { _ = try await store.order(juice, actor: "t") }
        #expect(try await store.orders(limit: nil).map(\.juice) == ["mangoJuice", "kiwiJuice", "bananaJuice"])
        #expect(try await store.orders(limit: 1).map(\.juice) == ["mangoJuice"])
        #expect(try await store.ledger(limit: 1).first?.fruit == "mango")
    }
}

extension JuiceBarStoreContractTests {
    @Test(arguments: Engine.available)
    func everyStockChangeRaisesTheVersion(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        let initial = try await store.stock().version
        let afterOrder = try await store.order("kiwiJuice", actor: "t").stock.version
        let afterEdit = try await store.setStock("kiwi", to: 9, actor: "t").version
        #expect(initial < afterOrder && afterOrder < afterEdit)
        #expect(try await store.stock().version == afterEdit)
    }
}
