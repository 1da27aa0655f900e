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
            Juice(id: "strawberryBananaJuice", name: .init(ko: "딸바쥬스", en: "Strawberry Banana Juice"),
                  recipe: [.init(fruit: "strawberry", amount: 10), .init(fruit: "banana", amount: 1)],
                  price: 6_000, optionGroups: cupOptions),
            Juice(id: "mangoKiwiJuice", name: .init(ko: "망키쥬스", en: "Mango Kiwi Juice"),
                  recipe: [.init(fruit: "mango", amount: 2), .init(fruit: "kiwi", amount: 1)],
                  price: 6_500, optionGroups: cupOptions),
            Juice(id: "strawberryJuice", name: .init(ko: "딸기쥬스", en: "Strawberry Juice"),
                  recipe: [.init(fruit: "strawberry", amount: 16)],
                  price: 5_500, optionGroups: cupOptions),
            Juice(id: "bananaJuice", name: .init(ko: "바나나쥬스", en: "Banana Juice"),
                  recipe: [.init(fruit: "banana", amount: 2)],
                  price: 4_500, optionGroups: cupOptions),
            Juice(id: "pineappleJuice", name: .init(ko: "파인애플쥬스", en: "Pineapple Juice"),
                  recipe: [.init(fruit: "pineapple", amount: 2)],
                  price: 5_000, optionGroups: cupOptions),
            Juice(id: "kiwiJuice", name: .init(ko: "키위쥬스", en: "Kiwi Juice"),
                  recipe: [.init(fruit: "kiwi", amount: 3)],
                  price: 5_000, optionGroups: cupOptions),
            Juice(id: "mangoJuice", name: .init(ko: "망고쥬스", en: "Mango Juice"),
                  recipe: [.init(fruit: "mango", amount: 3)],
                  price: 6_000, optionGroups: cupOptions),
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

    /// The groups every juice of a new shop offers: a large cup costs 1,000원 more and takes half
    /// as much fruit again (each amount rounded up); ice and sweetness cost nothing.
    private static let cupOptions: [OptionGroupID] = ["size", "ice", "sweetness"]

    /// How many of each fruit a new shop has.
    public static let seedStockPerFruit = 10
}
