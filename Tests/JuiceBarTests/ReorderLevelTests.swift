import Foundation
import JuiceBar
import Testing

@Suite struct ReorderLevelTests {
    let time = Date(timeIntervalSince1970: 1_795_395_600)

    @Test func aFruitIsLowAtOrBelowALevelThatIsSet() {
        let kiwi = Fruit(id: "kiwi", name: .init(ko: "키위", en: "Kiwi"), emoji: "🥝", level: 5)
        #expect(kiwi.isLow(count: 5))
        #expect(kiwi.isLow(count: 0))
        #expect(!kiwi.isLow(count: 6))
        var unwatched = kiwi
        unwatched.level = 0
        #expect(!unwatched.isLow(count: 0), "0 means no warning")
    }

    @Test func settingALevelChangesTheMenuAndMarksWhatIsLowNow() throws {
        var book = JuiceBarBook(menu: .seed, stock: Stock(["kiwi": 4, "mango": 9]))
        let plan = try book.decide(.setLevel("kiwi", 4), actor: "staff:a", at: time)
        #expect(plan.newLevel?.level == 4)
        #expect(plan.ledger.isEmpty && plan.counts.isEmpty, "a level is no stock change")
        #expect(book.menu.lowFruits(in: book.stock).map(\.id) == ["kiwi"])
        _ = try book.decide(.setLevel("mango", 10), actor: "staff:a", at: time)
        #expect(book.menu.lowFruits(in: book.stock).map(\.id) == ["kiwi", "mango"], "in menu order")
    }

    @Test func aLevelMustBeACountOfAKnownFruit() {
        var book = JuiceBarBook(menu: .seed, stock: Stock())
        #expect(throws: JuiceBarError.unknownFruit("grape")) { try book.decide(.setLevel("grape", 1), actor: "a", at: time) }
        #expect(throws: JuiceBarError.countOutOfRange(-1)) { try book.decide(.setLevel("kiwi", -1), actor: "a", at: time) }
        #expect(book.menu == .seed)
    }
}
