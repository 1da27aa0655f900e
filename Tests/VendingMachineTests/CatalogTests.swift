import Foundation
import Testing
import VendingMachine
import JuiceBar

@Suite struct CatalogTests {
    @Test func theNineProductsInThreeKinds() {
        #expect(Catalog.products.map(\.id) == [
            "strawberryMilk", "chocolateMilk", "bananaMilk", "cola", "cider", "fanta", "top", "cantata", "georgia",
        ])
        let kinds = Dictionary(grouping: Catalog.products, by: \.category.kind).mapValues { $0.map(\.name.ko) }
        #expect(kinds["milk"] == ["딸기우유", "초코우유", "바나나우유"])
        #expect(kinds["soda"] == ["콜라", "사이다", "환타"])
        #expect(kinds["coffee"] == ["TOP", "칸타타", "조지아"])
    }

    @Test func pricesAreWholeHundredsSoChangeIsAlwaysExact() {
        #expect(Catalog.products.allSatisfy { $0.price > 0 && $0.price % 100 == 0 })
    }

    @Test func everyProductDescribesItselfInOneLine() {
        for product in Catalog.products {
            #expect(!product.description.contains("\n"))
            #expect(product.description.contains(product.name.ko))
            #expect(product.description.contains(Won.format(product.price)))
        }
        let bananaMilk = Catalog.products[2]
        #expect(bananaMilk.description.contains("지방 3.4%"))
    }

    @Test func hotBeveragesAreTheHotCoffees() {
        #expect(Catalog.products.filter(\.isHot).map(\.id) == ["cantata", "georgia"])
    }

    @Test func shopDaysAreReadStrictly() {
        let seoul = ShopCalendar(timeZone: TimeZone(identifier: "Asia/Seoul")!)
        #expect(seoul.day("2026-11-23") == Date(timeIntervalSince1970: 1_795_359_600))
        #expect(seoul.day("2026-02-30") == nil)
        #expect(seoul.day("2026-1-3") == nil)
        #expect(seoul.day("yesterday") == nil)
        #expect(seoul.startOfNextDay(after: Date(timeIntervalSince1970: 1_795_359_600 + 23 * 3600))
                == Date(timeIntervalSince1970: 1_795_359_600 + 24 * 3600))
    }
}

@Suite struct PurchaseRuleTests {
    let cola = Catalog.products[3]
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func item(_ id: Int64, madeDaysAgo days: Double) -> Item {
        let made = now.addingTimeInterval(-days * 86_400)
        return Item(id: id, product: cola.id, manufactured: made, expires: cola.expiry(ofItemMadeOn: made))
    }

    @Test func takesTheOldestUnexpiredItem() throws {
        let items = [item(1, madeDaysAgo: 2), item(2, madeDaysAgo: 400), item(3, madeDaysAgo: 30)]
        #expect(try PurchaseRule.choose(cola, from: items, balance: 5_000, at: now).id == 3)
    }

    @Test func refusesWithTheReason() {
        #expect(throws: VendingError.soldOut("cola")) { try PurchaseRule.choose(cola, from: [], balance: 5_000, at: now) }
        #expect(throws: VendingError.expired("cola")) {
            try PurchaseRule.choose(cola, from: [item(1, madeDaysAgo: 400)], balance: 5_000, at: now)
        }
        #expect(throws: VendingError.insufficientBalance(price: 2_000, balance: 1_000)) {
            try PurchaseRule.choose(cola, from: [item(1, madeDaysAgo: 1)], balance: 1_000, at: now)
        }
    }
}
