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
                  recipe: [.init(fruit: "strawberry", amount: 10), .init(fruit: "banana", amount: 1)]),
            Juice(id: "mangoKiwiJuice", name: .init(ko: "망키쥬스", en: "Mango Kiwi Juice"),
                  recipe: [.init(fruit: "mango", amount: 2), .init(fruit: "kiwi", amount: 1)]),
            Juice(id: "strawberryJuice", name: .init(ko: "딸기쥬스", en: "Strawberry Juice"),
                  recipe: [.init(fruit: "strawberry", amount: 16)]),
            Juice(id: "bananaJuice", name: .init(ko: "바나나쥬스", en: "Banana Juice"),
                  recipe: [.init(fruit: "banana", amount: 2)]),
            Juice(id: "pineappleJuice", name: .init(ko: "파인애플쥬스", en: "Pineapple Juice"),
                  recipe: [.init(fruit: "pineapple", amount: 2)]),
            Juice(id: "kiwiJuice", name: .init(ko: "키위쥬스", en: "Kiwi Juice"),
                  recipe: [.init(fruit: "kiwi", amount: 3)]),
            Juice(id: "mangoJuice", name: .init(ko: "망고쥬스", en: "Mango Juice"),
                  recipe: [.init(fruit: "mango", amount: 3)]),
        ]
    )

    /// How many of each fruit a new shop has.
    public static let seedStockPerFruit = 10
}
