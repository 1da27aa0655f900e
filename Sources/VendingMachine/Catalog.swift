import ShopBasics

/// The nine products of a new machine, at prices of a Korean convenience store.
public enum Catalog {
    public static let products: [Product] = [
        Product(id: "strawberryMilk", name: .init(ko: "딸기우유", en: "Strawberry Milk"), brand: "서울우유",
                volumeML: 200, price: 1_300, shelfLifeDays: 10,
                category: .milk(.init(farm: "서울우유 양주목장", fatPercent: 2.5)), flavor: .init(ko: "딸기맛", en: "strawberry")),
        Product(id: "chocolateMilk", name: .init(ko: "초코우유", en: "Chocolate Milk"), brand: "서울우유",
                volumeML: 200, price: 1_300, shelfLifeDays: 10,
                category: .milk(.init(farm: "서울우유 양주목장", fatPercent: 2.7)), flavor: .init(ko: "초코맛", en: "chocolate")),
        Product(id: "bananaMilk", name: .init(ko: "바나나우유", en: "Banana Milk"), brand: "빙그레",
                volumeML: 240, price: 1_700, shelfLifeDays: 14,
                category: .milk(.init(farm: "빙그레 남양주목장", fatPercent: 3.4)), flavor: .init(ko: "바나나맛", en: "banana")),
        Product(id: "cola", name: .init(ko: "콜라", en: "Cola"), brand: "코카콜라",
                volumeML: 355, price: 2_000, shelfLifeDays: 365,
                category: .soda(.init(calories: 152, sugarFree: false)), flavor: .init(ko: "콜라맛", en: "cola")),
        Product(id: "cider", name: .init(ko: "사이다", en: "Cider"), brand: "칠성",
                volumeML: 355, price: 1_900, shelfLifeDays: 365,
                category: .soda(.init(calories: 0, sugarFree: true)), flavor: .init(ko: "라임향", en: "lime")),
        Product(id: "fanta", name: .init(ko: "환타", en: "Fanta"), brand: "코카콜라",
                volumeML: 355, price: 1_900, shelfLifeDays: 365,
                category: .soda(.init(calories: 160, sugarFree: false)), flavor: .init(ko: "오렌지맛", en: "orange")),
        Product(id: "top", name: .init(ko: "TOP", en: "TOP"), brand: "맥심",
                volumeML: 275, price: 2_500, shelfLifeDays: 270,
                category: .coffee(.init(caffeineMG: 142, isHot: false)), flavor: .init(ko: "스위트 아메리카노", en: "sweet americano")),
        Product(id: "cantata", name: .init(ko: "칸타타", en: "Cantata"), brand: "롯데",
                volumeML: 275, price: 2_400, shelfLifeDays: 270,
                category: .coffee(.init(caffeineMG: 121, isHot: true)), flavor: .init(ko: "라떼", en: "latte")),
        Product(id: "georgia", name: .init(ko: "조지아", en: "Georgia"), brand: "코카콜라",
                volumeML: 240, price: 1_500, shelfLifeDays: 365,
                category: .coffee(.init(caffeineMG: 80, isHot: true)), flavor: .init(ko: "오리지널", en: "original")),
    ]

    /// How many of each product a new machine holds.
    public static let startingCount = 5
}
