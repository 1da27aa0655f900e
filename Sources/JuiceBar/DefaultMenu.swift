extension Menu {
    /// The seed's menu: what a new shop starts with.
    public static let seed = Menu(
        fruits: [
            Fruit(id: "strawberry", name: .init(ko: "딸기", en: "Strawberry"), emoji: "🍓"),
            Fruit(id: "banana", name: .init(ko: "바나나", en: "Banana"), emoji: "🍌"),
            Fruit(id: "pineapple", name: .init(ko: "파인애플", en: "Pineapple"), emoji: "🍍"),
            Fruit(id: "kiwi", name: .init(ko: "키위", en: "Kiwi"), emoji: "🥝"),
            Fruit(id: "mango", name: .init(ko: "망고", en: "Mango"), emoji: "🥭"),
        ],
        juices: [
            cup("strawberryBananaJuice", "딸바쥬스", "Strawberry Banana Juice", 6_000, [("strawberry", 10), ("banana", 1)]),
            cup("mangoKiwiJuice", "망키쥬스", "Mango Kiwi Juice", 6_500, [("mango", 2), ("kiwi", 1)]),
            cup("strawberryJuice", "딸기쥬스", "Strawberry Juice", 5_500, [("strawberry", 16)]),
            cup("bananaJuice", "바나나쥬스", "Banana Juice", 4_500, [("banana", 2)]),
            cup("pineappleJuice", "파인애플쥬스", "Pineapple Juice", 5_000, [("pineapple", 2)]),
            cup("kiwiJuice", "키위쥬스", "Kiwi Juice", 5_000, [("kiwi", 3)]),
            cup("mangoJuice", "망고쥬스", "Mango Juice", 6_000, [("mango", 3)]),
        ],
        optionGroups: [
            MenuOptionGroup(id: "size", name: .init(ko: "사이즈", en: "Size"), min: 1, max: 1, options: [
                MenuOption(id: "regular", name: .init(ko: "레귤러", en: "Regular")),
                MenuOption(id: "large", name: .init(ko: "라지", en: "Large"), price: 1_000, recipePercent: 150),
            ]),
            MenuOptionGroup(id: "ice", name: .init(ko: "얼음", en: "Ice"), min: 1, max: 1, options: [
                MenuOption(id: "normal", name: .init(ko: "보통", en: "Regular ice")),
                MenuOption(id: "less", name: .init(ko: "적게", en: "Less ice")),
                MenuOption(id: "none", name: .init(ko: "없이", en: "No ice")),
            ]),
            MenuOptionGroup(id: "sweetness", name: .init(ko: "당도", en: "Sweetness"), min: 1, max: 1, options: [
                MenuOption(id: "normal", name: .init(ko: "기본", en: "Regular")),
                MenuOption(id: "less", name: .init(ko: "덜 달게", en: "Less sweet")),
            ]),
        ]
    )

    /// A seed juice: its names, its price in won and its recipe, with the groups every juice of a
    /// new shop offers (a large cup costs 1,000원 more and takes half as much fruit again, each
    /// amount rounded up; ice and sweetness cost nothing).
    private static func cup(_ id: JuiceID, _ ko: String, _ en: String, _ price: Int, _ recipe: [(FruitID, Int)]) -> Juice {
        Juice(id: id, name: .init(ko: ko, en: en), recipe: recipe.map { Ingredient(fruit: $0.0, amount: $0.1) },
              price: price, optionGroups: ["size", "ice", "sweetness"])
    }

    /// How many of each fruit a new shop has.
    public static let seedStockPerFruit = 10
}
