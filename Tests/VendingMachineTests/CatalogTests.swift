import Foundation
import ShopBasics
import Testing
import VendingMachine

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

    @Test func aCategoryIsWrittenAsPlainFieldsBesideItsKindAndReadBack() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let bananaMilk = Catalog.products[2].category
        #expect(String(decoding: try encoder.encode(bananaMilk), as: UTF8.self)
            == #"{"farm":"빙그레 남양주목장","fatPercent":3.4,"kind":"milk"}"#)
        for product in Catalog.products {
            #expect(try JSONDecoder().decode(Product.self, from: try encoder.encode(product)) == product)
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Category.self, from: Data(#"{"kind":"juice","farm":"x","fatPercent":1}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Category.self, from: Data(#"{"milk":{"_0":{"farm":"x","fatPercent":1}}}"#.utf8))
        }
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
        // Int() would take a sign: this is not the year 26.
        #expect(seoul.day("+026-11-01") == nil)
        #expect(seoul.day("-026-11-01") == nil)
        #expect(seoul.day("2026-+1-01") == nil)
        #expect(seoul.day("２０２６-11-01") == nil)
        #expect(seoul.startOfNextDay(after: Date(timeIntervalSince1970: 1_795_359_600 + 23 * 3600))
                == Date(timeIntervalSince1970: 1_795_359_600 + 24 * 3600))
    }
}

@Suite struct PurchaseRuleTests {
    let cola = Catalog.products[3]
    let fresh = Item(id: 7, product: "cola", manufactured: Date(timeIntervalSince1970: 0), expires: .distantFuture)

    @Test func takesTheOldestFreshItemWhenTheBalancePays() throws {
        #expect(try PurchaseRule.check(cola, unsold: 3, oldestFresh: fresh, balance: 2_000) == fresh)
    }

    @Test func refusesWithTheReason() {
        #expect(throws: VendingError.soldOut("cola")) { try PurchaseRule.check(cola, unsold: 0, oldestFresh: nil, balance: 5_000) }
        #expect(throws: VendingError.expired("cola")) { try PurchaseRule.check(cola, unsold: 2, oldestFresh: nil, balance: 5_000) }
        #expect(throws: VendingError.insufficientBalance(price: 2_000, balance: 1_000)) {
            try PurchaseRule.check(cola, unsold: 1, oldestFresh: fresh, balance: 1_000)
        }
    }
}
