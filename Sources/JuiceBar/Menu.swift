import ShopBasics
/// A fruit the shop keeps in stock.
public struct Fruit: Hashable, Codable, Sendable {
    public var id: FruitID
    public var name: LocalizedName
    public var emoji: String
    /// The reorder level: at or below it the fruit is low and staff are warned; 0, no warning.
    public var level: Int

    public init(id: FruitID, name: LocalizedName, emoji: String, level: Int = 0) {
        self.id = id
        self.name = name
        self.emoji = emoji
        self.level = level
    }

    /// Whether `count` of this fruit is low: at or below a reorder level that is set.
    public func isLow(count: Int) -> Bool {
        level > 0 && count <= level
    }
}

/// How much of one fruit a juice takes.
public struct Ingredient: Hashable, Codable, Sendable {
    public var fruit: FruitID
    public var amount: Int
    public init(fruit: FruitID, amount: Int) {
        (self.fruit, self.amount) = (fruit, amount)
    }
}

/// A juice on the menu: the fruit it is made of, in the order the recipe names them, its price
/// and the option groups a cup of it offers.
public struct Juice: Hashable, Codable, Sendable {
    public var id: JuiceID
    public var name: LocalizedName
    public var recipe: [Ingredient]
    /// Won for a cup with no extras, VAT included.
    public var price: Int
    /// The shop's option groups a cup offers, in the order the counter shows them.
    public var optionGroups: [OptionGroupID]
    /// 품절 for now: on the menu, but not sold until staff say so.
    public var soldOut: Bool
    /// Taken off the menu for good; kept so that past orders still name it.
    public var retired: Bool

    public init(id: JuiceID, name: LocalizedName, recipe: [Ingredient], price: Int = 0,
                optionGroups: [OptionGroupID] = [], soldOut: Bool = false, retired: Bool = false) {
        (self.id, self.name, self.recipe) = (id, name, recipe)
        (self.price, self.optionGroups, self.soldOut, self.retired) = (price, optionGroups, soldOut, retired)
    }
}

/// What the shop sells and what it keeps: data, so a shop can grow it without a rebuild.
public struct Menu: Hashable, Codable, Sendable {
    public var fruits: [Fruit]
    public var juices: [Juice]
    /// The option groups juices offer (사이즈, 얼음, 당도 …), defined once for the shop.
    public var optionGroups: [MenuOptionGroup]

    public init(fruits: [Fruit], juices: [Juice], optionGroups: [MenuOptionGroup] = []) {
        self.fruits = fruits
        self.juices = juices
        self.optionGroups = optionGroups
    }

    public func optionGroup(_ id: OptionGroupID) -> MenuOptionGroup? { optionGroups.first { $0.id == id } }

    public func fruit(_ id: FruitID) -> Fruit? { fruits.first { $0.id == id } }

    /// The fruits at or below their reorder level, in menu order.
    public func lowFruits(in stock: Stock) -> [Fruit] {
        fruits.filter { $0.isLow(count: stock[$0.id]) }
    }
    public func juice(_ id: JuiceID) -> Juice? { juices.first { $0.id == id } }

    /// The fruit with this id, or the error that says no such fruit exists.
    public func requireFruit(_ id: FruitID) throws(JuiceBarError) -> Fruit {
        guard let fruit = fruit(id) else { throw .unknownFruit(id.rawValue) }
        return fruit
    }

    /// The juice with this id, or the error that says no such juice exists.
    public func requireJuice(_ id: JuiceID) throws(JuiceBarError) -> Juice {
        guard let juice = juice(id) else { throw .unknownJuice(id.rawValue) }
        return juice
    }

    /// Checks that a new fruit fits beside the ones the shop has.
    public func validateNew(_ fruit: Fruit) throws(JuiceBarError) {
        guard Identifier.isValid(fruit.id.rawValue) else { throw .invalidIdentifier(fruit.id.rawValue) }
        guard self.fruit(fruit.id) == nil else { throw .duplicate(fruit.id.rawValue) }
        try Self.validateNames(fruit.name)
        guard WrittenText.isAcceptable(fruit.emoji) else { throw .invalidText("emoji") }
    }

    private static func validateNames(_ name: LocalizedName) throws(JuiceBarError) {
        guard !name.ko.isEmpty, !name.en.isEmpty else { throw .emptyName }
        guard WrittenText.isAcceptable(name.ko), WrittenText.isAcceptable(name.en) else { throw .invalidText("name") }
    }

    /// Checks that a new juice has a fresh id and is one the menu can sell (`validate`).
    public func validateNew(_ juice: Juice) throws {
        guard Identifier.isValid(juice.id.rawValue) else { throw JuiceBarError.invalidIdentifier(juice.id.rawValue) }
        guard self.juice(juice.id) == nil else { throw JuiceBarError.duplicate(juice.id.rawValue) }
        try validate(juice)
    }

    /// Checks a juice's names, its recipe (known fruit, each used once) and what it sells by.
    public func validate(_ juice: Juice) throws {
        try Self.validateNames(juice.name)
        guard !juice.recipe.isEmpty else { throw JuiceBarError.emptyRecipe }
        var seen: Set<FruitID> = []
        for ingredient in juice.recipe {
            _ = try requireFruit(ingredient.fruit)
            guard seen.insert(ingredient.fruit).inserted else { throw JuiceBarError.duplicate(ingredient.fruit.rawValue) }
            guard StockLimits.recipeAmount.contains(ingredient.amount) else {
                throw JuiceBarError.amountOutOfRange(ingredient.amount)
            }
        }
        try validateSale(of: juice)
    }
}
