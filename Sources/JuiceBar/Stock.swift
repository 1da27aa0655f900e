/// The bounds every stored count and recipe amount must respect.
public enum StockLimits {
    public static let count = 0...1_000_000
    public static let recipeAmount = 1...1_000_000

    public static func validate(count: Int) throws(JuiceBarError) {
        guard Self.count.contains(count) else { throw .countOutOfRange(count) }
    }

    /// Reads a count typed by a person: a whole number within bounds, or the error that says why not.
    public static func parseCount(_ text: String) throws(JuiceBarError) -> Int {
        let count = try wholeNumber(text)
        try validate(count: count)
        return count
    }
}

/// One fruit a juice is short of.
public struct Shortage: Hashable, Codable, Sendable {
    public var fruit: FruitID
    public var needed: Int
    public var available: Int
    public init(fruit: FruitID, needed: Int, available: Int) {
        self.fruit = fruit
        self.needed = needed
        self.available = available
    }
}

/// An order refused because the stock cannot make the juice: an answer, not a crash.
public struct OutOfStock: Error, Hashable, Codable, Sendable {
    public var juice: JuiceID
    public var shortages: [Shortage]
    public init(juice: JuiceID, shortages: [Shortage]) {
        self.juice = juice
        self.shortages = shortages
    }
}

/// How many of each fruit the shop has. The one place the ordering rule lives.
public struct Stock: Hashable, Codable, Sendable {
    public var counts: [FruitID: Int]

    public init(_ counts: [FruitID: Int] = [:]) { self.counts = counts }

    public subscript(fruit: FruitID) -> Int {
        get { counts[fruit, default: 0] }
        set { counts[fruit] = newValue }
    }

    /// Every fruit the recipe needs more of than there is; empty when the juice can be made.
    public func shortages(for juice: Juice) -> [Shortage] {
        shortages(for: juice.recipe)
    }

    public func shortages(for recipe: [Ingredient]) -> [Shortage] {
        recipe.compactMap { ingredient in
            let available = self[ingredient.fruit]
            return available < ingredient.amount
                ? Shortage(fruit: ingredient.fruit, needed: ingredient.amount, available: available)
                : nil
        }
    }

    /// Takes every ingredient of the juice, or nothing at all.
    public mutating func deduct(_ juice: Juice) throws(OutOfStock) {
        try deduct(juice.recipe, for: juice.id)
    }

    /// Takes every ingredient of the recipe, or nothing at all.
    public mutating func deduct(_ recipe: [Ingredient], for juice: JuiceID) throws(OutOfStock) {
        let shortages = shortages(for: recipe)
        guard shortages.isEmpty else { throw OutOfStock(juice: juice, shortages: shortages) }
        for ingredient in recipe { self[ingredient.fruit] -= ingredient.amount }
    }

    /// How many more of this juice the stock can make.
    public func makeableCount(of juice: Juice) -> Int {
        juice.recipe.map { self[$0.fruit] / $0.amount }.min() ?? 0
    }

    /// Encodes as one flat object of fruit id → count, the shape the CLI and API share.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) }))
    }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode([String: Int].self)
        counts = Dictionary(uniqueKeysWithValues: raw.map { (FruitID($0.key), $0.value) })
    }
}
