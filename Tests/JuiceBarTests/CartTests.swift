import JuiceBar
import Testing

/// Pricing a cart by the menu: the server's one computation of every price.
@Suite struct CartTests {
    let menu = Menu.seed

    @Test func aCartOfTwoLargeStrawberryBananasWithLessIceAndAMangoKiwiIsPricedFromTheMenu() throws {
        let cart = try menu.price([
            CartLine(juice: "strawberryBananaJuice", quantity: 2, options: ["size": ["large"], "ice": ["less"]]),
            CartLine(juice: "mangoKiwiJuice"),
        ])
        let large = try #require(menu.juice("strawberryBananaJuice")).price + 1_000
        #expect(cart.lines[0].unitPrice == large && cart.lines[0].amount == 2 * large)
        #expect(cart.lines[0].options.map(\.name.ko) == ["라지", "적게", "기본"])
        #expect(cart.lines[1].unitPrice == menu.juice("mangoKiwiJuice")?.price)
        #expect(cart.lines[1].options.map(\.id) == ["regular", "normal", "normal"], "each group's default")
        #expect(cart.total == 2 * large + cart.lines[1].unitPrice)
        #expect(cart.vat == cart.total - Int((Double(cart.total) / 1.1).rounded()))
        // A large cup takes half as much fruit again, rounded up: 15 strawberries, 2 bananas.
        #expect(cart.lines[0].uses == [.init(fruit: "strawberry", amount: 30), .init(fruit: "banana", amount: 4)])
        #expect(cart.uses == [.init(fruit: "strawberry", amount: 30), .init(fruit: "banana", amount: 4),
                              .init(fruit: "mango", amount: 2), .init(fruit: "kiwi", amount: 1)])
    }

    @Test func theVATIsWhatAKoreanReceiptPrints() {
        #expect(Prices.vat(ofTotal: 13_000) == 1_182)  // 공급가액 11,818
        #expect(Prices.vat(ofTotal: 11) == 1)
        #expect(Prices.vat(ofTotal: 0) == 0)
        #expect(Prices.vat(ofTotal: 6) == 1)  // 6 / 1.1 = 5.45…, 공급가액 5
    }

    @Test func everyRefusalNamesWhatIsWrong() {
        let kiwi: JuiceID = "kiwiJuice"
        #expect(throws: SaleError.unknownJuice("lemonJuice")) { try menu.price([CartLine(juice: "lemonJuice")]) }
        #expect(throws: SaleError.unknownOption(group: "size", option: "huge")) {
            try menu.price([CartLine(juice: kiwi, options: ["size": ["huge"]])])
        }
        #expect(throws: SaleError.unknownOption(group: "topping", option: "nuts")) {
            try menu.price([CartLine(juice: kiwi, options: ["topping": ["nuts"]])])
        }
        #expect(throws: SaleError.optionsRequired(group: "size", min: 1)) {
            try menu.price([CartLine(juice: kiwi, options: ["size": []])])
        }
        #expect(throws: SaleError.tooManyOptions(group: "ice", max: 1)) {
            try menu.price([CartLine(juice: kiwi, options: ["ice": ["less", "none"]])])
        }
        #expect(throws: SaleError.repeatedOption(group: "ice", option: "less")) {
            try menu.price([CartLine(juice: kiwi, options: ["ice": ["less", "less"]])])
        }
        for quantity in [0, -1, 100] {
            #expect(throws: SaleError.badQuantity) { try menu.price([CartLine(juice: kiwi, quantity: quantity)]) }
        }
        #expect(throws: SaleError.badQuantity) { try menu.price([]) }
        #expect(throws: SaleError.badQuantity) { try menu.price(Array(repeating: CartLine(juice: kiwi), count: 21)) }
        var shop = menu
        shop.juices[0].soldOut = true
        shop.juices[1].retired = true
        #expect(throws: SaleError.soldOut(shop.juices[0].id)) { try shop.price([CartLine(juice: shop.juices[0].id)]) }
        #expect(throws: SaleError.soldOut(shop.juices[1].id)) { try shop.price([CartLine(juice: shop.juices[1].id)]) }
    }

    @Test func anExtraUsesTheStockItemItNames() throws {
        var shop = menu
        shop.fruits.append(Fruit(id: "yogurt", name: .init(ko: "요거트", en: "Yogurt"), emoji: "🥛"))
        shop.optionGroups.append(MenuOptionGroup(id: "extra", name: .init(ko: "추가", en: "Extras"), min: 0, max: 2, options: [
            MenuOption(id: "yogurt", name: .init(ko: "요거트 추가", en: "Add yogurt"), price: 500, adds: [.init(fruit: "yogurt", amount: 1)]),
            MenuOption(id: "shot", name: .init(ko: "샷 추가", en: "Extra shot"), price: 700),
        ]))
        shop.juices[5].optionGroups.append("extra")
        let kiwi = shop.juices[5]
        #expect(try shop.optionGroup("extra")!.validate(in: shop) == ())
        let plain = try shop.price([CartLine(juice: kiwi.id)])
        #expect(plain.lines[0].options.count == 3, "an optional group left out adds nothing")
        let both = try shop.price([CartLine(juice: kiwi.id, quantity: 3, options: ["extra": ["shot", "yogurt"]])])
        #expect(both.lines[0].unitPrice == kiwi.price + 1_200)
        #expect(both.lines[0].options.suffix(2).map(\.id) == ["yogurt", "shot"], "in the group's order")
        #expect(both.uses == [.init(fruit: "kiwi", amount: 9), .init(fruit: "yogurt", amount: 3)])
    }

    /// Stock is checked entry by entry, so an extra of a fruit the recipe has already is added to it.
    @Test func anExtraOfTheRecipesOwnFruitIsOneEntry() throws {
        var shop = menu
        shop.optionGroups.append(MenuOptionGroup(id: "extra", name: .init(ko: "추가", en: "Extras"), min: 0, max: 1, options: [
            MenuOption(id: "kiwi", name: .init(ko: "키위 추가", en: "More kiwi"), price: 500, adds: [.init(fruit: "kiwi", amount: 1)]),
        ]))
        shop.juices[5].optionGroups.append("extra")
        let cart = try shop.price([CartLine(juice: shop.juices[5].id, quantity: 2, options: ["extra": ["kiwi"]])])
        #expect(cart.lines[0].uses == [.init(fruit: "kiwi", amount: 8)])
    }

    @Test func aGroupThatCannotBeSatisfiedIsRefused() {
        let option = MenuOption(id: "one", name: .init(ko: "하나", en: "One"))
        for (min, max) in [(2, 2), (1, 0), (-1, 1), (0, 3)] {
            let group = MenuOptionGroup(id: "odd", name: .init(ko: "이상", en: "Odd"), min: min, max: max, options: [option])
            #expect(throws: SaleError.invalidGroup("odd")) { try group.validate(in: menu) }
        }
        let pricey = MenuOptionGroup(id: "odd", name: .init(ko: "이상", en: "Odd"), min: 0, max: 1, options: [
            MenuOption(id: "one", name: .init(ko: "하나", en: "One"), price: -1),
        ])
        #expect(throws: SaleError.invalidGroup("odd")) { try pricey.validate(in: menu) }
    }

    /// Random carts, valid or not: a priced cart's total is always the sum of its lines, each line
    /// its unit price times its quantity, nothing negative, and the stock it takes the recipe's
    /// (scaled) times the cups.
    @Test func randomCartsAlwaysAddUp() throws {
        var generator = SplitMix(seed: 20261129)
        let groups = menu.optionGroups
        var priced = 0
        for _ in 0..<5_000 {
            let lines = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                CartLine(
                    juice: Int.random(in: 0...9, using: &generator) > 0 ? menu.juices.randomElement(using: &generator)!.id : "lemonJuice",
                    quantity: Int.random(in: 0...100, using: &generator),
                    options: Dictionary(uniqueKeysWithValues: groups.filter { _ in Bool.random(using: &generator) }.map { group in
                        (group.id, (0..<[1, 1, 1, 0, 2].randomElement(using: &generator)!).map { _ in
                            Int.random(in: 0...9, using: &generator) == 0 ? "bogus" : group.options.randomElement(using: &generator)!.id
                        })
                    }))
            }
            guard let cart = try? menu.price(lines) else { continue }
            priced += 1
            #expect(cart.total == cart.lines.map(\.amount).reduce(0, +) && cart.total > 0)
            #expect(cart.vat >= 0 && cart.vat < cart.total)
            for (sold, line) in zip(cart.lines, lines) {
                let juice = try #require(menu.juice(sold.juice))
                #expect(sold.amount == sold.unitPrice * line.quantity && sold.unitPrice >= juice.price)
                let large = sold.options.contains { $0.id == "large" }
                #expect(sold.uses == juice.recipe.map {
                    Ingredient(fruit: $0.fruit, amount: (large ? ($0.amount * 3 + 1) / 2 : $0.amount) * line.quantity)
                })
            }
        }
        #expect(priced > 400, "enough of the random carts are valid to say something")
    }
}

/// A small seeded generator, so a failing cart can be found again.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
