import Foundation
import JuiceBar
import Testing

@Suite struct StockTests {
    let menu = Menu.seed
    var fullStock: Stock { Stock(Dictionary(uniqueKeysWithValues: menu.fruits.map { ($0.id, 10) })) }

    func juice(_ id: JuiceID) throws -> Juice { try menu.requireJuice(id) }

    @Test func orderingTakesEveryIngredient() throws {
        var stock = fullStock
        try stock.deduct(try juice("strawberryBananaJuice"))
        #expect(stock["strawberry"] == 0)
        #expect(stock["banana"] == 9)
        #expect(stock["mango"] == 10)
    }

    @Test func aRefusedOrderNamesEveryShortFruitAndTakesNothing() throws {
        var stock = fullStock
        stock["strawberry"] = 4
        stock["banana"] = 0
        let before = stock
        let error = #expect(throws: OutOfStock.self) { try stock.deduct(try juice("strawberryBananaJuice")) }
        #expect(error?.shortages == [
            Shortage(fruit: "strawberry", needed: 10, available: 4),
            Shortage(fruit: "banana", needed: 1, available: 0),
        ])
        #expect(stock == before)
    }

    @Test func strawberryJuiceCannotBeMadeFromANewShop() throws {
        let shortages = fullStock.shortages(for: try juice("strawberryJuice"))
        #expect(shortages == [Shortage(fruit: "strawberry", needed: 16, available: 10)])
    }

    @Test(arguments: [
        ("strawberryJuice", 0), ("bananaJuice", 5), ("kiwiJuice", 3), ("pineappleJuice", 5),
        ("strawberryBananaJuice", 1), ("mangoJuice", 3), ("mangoKiwiJuice", 5),
    ] as [(JuiceID, Int)])
    func makeableCountsOfANewShop(juiceID: JuiceID, expected: Int) throws {
        #expect(fullStock.makeableCount(of: try juice(juiceID)) == expected)
    }

    @Test func makeableCountIsLimitedByTheScarcestIngredient() throws {
        var stock = fullStock
        stock["kiwi"] = 1
        #expect(stock.makeableCount(of: try juice("mangoKiwiJuice")) == 1)
    }

    @Test func stockEncodesAsOneFlatObject() throws {
        let data = try JSONEncoder().encode(Stock(["kiwi": 3, "mango": 0]))
        let decoded = try JSONDecoder().decode([String: Int].self, from: data)
        #expect(decoded == ["kiwi": 3, "mango": 0])
        #expect(try JSONDecoder().decode(Stock.self, from: data) == Stock(["kiwi": 3, "mango": 0]))
    }
}

@Suite struct StockLimitsTests {
    @Test(arguments: ["0", "10", "1000000"])
    func acceptsWholeNumbersInRange(text: String) throws {
        #expect(try StockLimits.parseCount(text) == Int(text))
    }

    @Test func refusesWhatIsNotANumber() {
        #expect(throws: JuiceBarError.notANumber("ten")) { try StockLimits.parseCount("ten") }
        #expect(throws: JuiceBarError.notANumber("1.5")) { try StockLimits.parseCount("1.5") }
        #expect(throws: JuiceBarError.notANumber("")) { try StockLimits.parseCount("") }
    }

    @Test func refusesCountsOutsideTheRange() {
        #expect(throws: JuiceBarError.countOutOfRange(-1)) { try StockLimits.parseCount("-1") }
        #expect(throws: JuiceBarError.countOutOfRange(1_000_001)) { try StockLimits.parseCount("1000001") }
    }
}

@Suite struct JuiceBarBookTests {
    let time = Date(timeIntervalSince1970: 1_795_395_600)

    @Test func anOrderPlansTheOrderItsLedgerLinesAndTheNewCounts() throws {
        var book = JuiceBarBook(menu: .seed, stock: Stock(["strawberry": 10, "banana": 10]))
        let plan = try book.decide(.order(.cup(of: "strawberryBananaJuice", member: 7)), actor: "guest", at: time)
        #expect(plan.order == Order(id: 0, juice: "strawberryBananaJuice", time: time, actor: "guest", number: 1,
                                    day: book.calendar.dayText(of: time), status: .pickedUp, readyTime: time, member: 7,
                                    sale: try Menu.seed.price([CartLine(juice: "strawberryBananaJuice")])))
        #expect(plan.member == 7)
        #expect(plan.counts == ["strawberry": 0, "banana": 9])
        #expect(plan.ledger.map(\.delta) == [-10, -1])
        #expect(plan.ledger.allSatisfy { $0.cause == .order && $0.juice == "strawberryBananaJuice" })
        #expect(book.stock.counts == ["strawberry": 0, "banana": 9])
    }

    @Test func aRefusedWriteLeavesTheBookAsItWas() throws {
        var book = JuiceBarBook(menu: .seed, stock: Stock(["strawberry": 3, "banana": 10]))
        let before = book
        #expect(throws: OutOfStock.self) { try book.decide(.order(.cup(of: "strawberryBananaJuice")), actor: "a", at: time) }
        #expect(throws: JuiceBarError.unknownFruit("grape")) { try book.decide(.change("grape", .set(1)), actor: "a", at: time) }
        #expect(throws: JuiceBarError.countOutOfRange(1_000_003)) {
            try book.decide(.change("banana", .deliver(999_993)), actor: "a", at: time)
        }
        #expect(throws: JuiceBarError.duplicate("kiwi")) {
            try book.decide(.addFruit(Fruit(id: "kiwi", name: .init(ko: "키위", en: "Kiwi"), emoji: "🥝"), count: 1), actor: "a", at: time)
        }
        #expect(book == before)
    }

    @Test func writesInABatchEachSeeWhatTheOnesBeforeLeft() throws {
        var book = JuiceBarBook(menu: .seed, stock: Stock(["mango": 7, "kiwi": 1]))
        _ = try book.decide(.order(.cup(of: "mangoJuice")), actor: "a", at: time)
        _ = try book.decide(.order(.cup(of: "mangoJuice")), actor: "a", at: time)
        #expect(throws: OutOfStock.self) { try book.decide(.order(.cup(of: "mangoJuice")), actor: "a", at: time) }
        let grape = Fruit(id: "grape", name: .init(ko: "포도", en: "Grape"), emoji: "🍇")
        _ = try book.decide(.addFruit(grape, count: 9), actor: "a", at: time)
        let grapeJuice = Juice(id: "grapeJuice", name: .init(ko: "포도쥬스", en: "Grape Juice"), recipe: [.init(fruit: "grape", amount: 3)])
        _ = try book.decide(.addJuice(grapeJuice), actor: "a", at: time)
        let plan = try book.decide(.order(.cup(of: "grapeJuice")), actor: "a", at: time)
        #expect(plan.counts == ["grape": 6])
        #expect(book.stock["mango"] == 1)
    }
}
