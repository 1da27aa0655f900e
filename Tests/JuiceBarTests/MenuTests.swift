import JuiceBar
import Testing

@Suite struct MenuTests {
    @Test func theSeedMenuIsTheSeedsFiveFruitsAndSevenJuices() {
        #expect(Menu.seed.fruits.map(\.id) == ["strawberry", "banana", "pineapple", "kiwi", "mango"])
        #expect(Menu.seed.fruits.map(\.name.ko) == ["딸기", "바나나", "파인애플", "키위", "망고"])
        let recipes = Dictionary(uniqueKeysWithValues: Menu.seed.juices.map { juice in
            (juice.id, juice.recipe.map { "\($0.fruit) \($0.amount)" }.joined(separator: " + "))
        })
        #expect(recipes == [
            "strawberryJuice": "strawberry 16",
            "bananaJuice": "banana 2",
            "kiwiJuice": "kiwi 3",
            "pineappleJuice": "pineapple 2",
            "strawberryBananaJuice": "strawberry 10 + banana 1",
            "mangoJuice": "mango 3",
            "mangoKiwiJuice": "mango 2 + kiwi 1",
        ])
        #expect(Menu.seed.juice("strawberryBananaJuice")?.name.ko == "딸바쥬스")
    }

    @Test func unknownIdsAreNamedInTheError() {
        #expect(throws: JuiceBarError.unknownJuice("lemonJuice")) { try Menu.seed.requireJuice("lemonJuice") }
        #expect(throws: JuiceBarError.unknownFruit("grape")) { try Menu.seed.requireFruit("grape") }
    }

    @Test func aNewJuiceMustBeMadeOfKnownFruit() {
        let grapeJuice = Juice(id: "grapeJuice", name: .init(ko: "포도쥬스", en: "Grape Juice"),
                               recipe: [.init(fruit: "grape", amount: 3)])
        #expect(throws: JuiceBarError.unknownFruit("grape")) { try Menu.seed.validateNew(grapeJuice) }
    }

    @Test func namesWithANULAreRefused() {
        let grape = Fruit(id: "grape", name: .init(ko: "포\u{0}도", en: "Grape"), emoji: "🍇")
        #expect(throws: JuiceBarError.invalidText("name")) { try Menu.seed.validateNew(grape) }
        let kiwiShot = Juice(id: "kiwiShot", name: .init(ko: "키위샷", en: "Kiwi\u{0}Shot"), recipe: [.init(fruit: "kiwi", amount: 1)])
        #expect(throws: JuiceBarError.invalidText("name")) { try Menu.seed.validateNew(kiwiShot) }
    }

    @Test func aNewJuiceNeedsAFreshValidIdAndPositiveAmounts() {
        func juice(_ id: JuiceID, _ recipe: [Ingredient]) -> Juice {
            Juice(id: id, name: .init(ko: "새쥬스", en: "New Juice"), recipe: recipe)
        }
        #expect(throws: JuiceBarError.duplicate("kiwiJuice")) {
            try Menu.seed.validateNew(juice("kiwiJuice", [.init(fruit: "kiwi", amount: 1)]))
        }
        #expect(throws: JuiceBarError.invalidIdentifier("kiwi juice")) {
            try Menu.seed.validateNew(juice("kiwi juice", [.init(fruit: "kiwi", amount: 1)]))
        }
        #expect(throws: JuiceBarError.amountOutOfRange(0)) {
            try Menu.seed.validateNew(juice("kiwiShot", [.init(fruit: "kiwi", amount: 0)]))
        }
        #expect(throws: JuiceBarError.emptyRecipe) { try Menu.seed.validateNew(juice("air", [])) }
        #expect(throws: JuiceBarError.duplicate("kiwi")) {
            try Menu.seed.validateNew(juice("kiwiKiwi", [.init(fruit: "kiwi", amount: 1), .init(fruit: "kiwi", amount: 2)]))
        }
    }

    @Test func aNewFruitNeedsAFreshIdAndBothNames() throws {
        #expect(throws: JuiceBarError.duplicate("kiwi")) {
            try Menu.seed.validateNew(Fruit(id: "kiwi", name: .init(ko: "키위", en: "Kiwi"), emoji: "🥝"))
        }
        #expect(throws: JuiceBarError.emptyName) {
            try Menu.seed.validateNew(Fruit(id: "grape", name: .init(ko: "", en: "Grape"), emoji: "🍇"))
        }
        try Menu.seed.validateNew(Fruit(id: "grape", name: .init(ko: "포도", en: "Grape"), emoji: "🍇"))
    }
}

@Suite struct RecommendationTests {
    let stock = Stock(["strawberry": 10, "banana": 10, "pineapple": 10, "kiwi": 10, "mango": 10])

    @Test func theMostOrderedJuiceThatCanBeMadeNow() {
        let orders: [JuiceID] = ["kiwiJuice", "mangoJuice", "kiwiJuice"]
        #expect(Menu.seed.recommendation(fromOrders: orders, stock: stock)?.id == "kiwiJuice")
        var noKiwi = stock
        noKiwi["kiwi"] = 2
        #expect(Menu.seed.recommendation(fromOrders: orders, stock: noKiwi)?.id == "mangoJuice")
    }

    @Test func tiesGoToTheMostRecentAndNoOrdersMeanNoRecommendation() {
        #expect(Menu.seed.recommendation(fromOrders: ["bananaJuice", "kiwiJuice"], stock: stock)?.id == "bananaJuice")
        #expect(Menu.seed.recommendation(fromOrders: [], stock: stock) == nil)
        #expect(Menu.seed.recommendation(fromOrders: ["strawberryJuice"], stock: stock) == nil)
    }
}
