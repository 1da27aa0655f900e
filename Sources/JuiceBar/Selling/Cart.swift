import ShopBasics

/// One line of a cart as a client sends it: a juice, how many cups, and the options chosen per
/// group. A group the line does not name gets its defaults (레귤러, 얼음 보통); one named with no
/// option is left empty, which a required group refuses.
public struct CartLine: Hashable, Codable, Sendable {
    public var juice: JuiceID
    public var quantity: Int
    public var options: [OptionGroupID: [OptionID]]

    public init(juice: JuiceID, quantity: Int = 1, options: [OptionGroupID: [OptionID]] = [:]) {
        (self.juice, self.quantity, self.options) = (juice, quantity, options)
    }
}

/// An option as a sold cup keeps it: its name and price at the moment of the sale.
public struct SoldOption: Hashable, Codable, Sendable {
    public var group: OptionGroupID
    public var id: OptionID
    public var name: LocalizedName
    public var price: Int
}

/// A line as sold: names and prices copied from the menu, so a later change of the menu never
/// changes an order, its receipt, an export or a day's report.
public struct SoldLine: Hashable, Codable, Sendable {
    public var juice: JuiceID
    public var name: LocalizedName
    public var quantity: Int
    public var options: [SoldOption]
    /// The juice's price and every option's, for one cup.
    public var unitPrice: Int
    /// `unitPrice` × `quantity`.
    public var amount: Int
    /// The stock the line's cups take together, one entry per fruit, in the recipe's order.
    public var uses: [Ingredient]
}

/// A cart priced by the menu: the one place a price is computed.
public struct PricedCart: Hashable, Codable, Sendable {
    public var lines: [SoldLine]
    /// The sum of the lines' amounts, VAT included.
    public var total: Int
    /// The VAT inside `total`.
    public var vat: Int

    public init(lines: [SoldLine]) {
        self.lines = lines
        total = lines.reduce(0) { $0 + $1.amount }
        vat = Prices.vat(ofTotal: total)
    }

    /// The stock every line takes together, one entry per fruit.
    public var uses: [Ingredient] { lines.flatMap(\.uses).perFruit }
}

extension [Ingredient] {
    /// The same amounts with each fruit once, in the order the fruit first appear: stock is
    /// checked per entry, so a fruit named twice (in a recipe and an extra) must be added up first.
    var perFruit: [Ingredient] {
        var order: [FruitID] = []
        var amounts: [FruitID: Int] = [:]
        for ingredient in self {
            if amounts[ingredient.fruit] == nil { order.append(ingredient.fruit) }
            amounts[ingredient.fruit, default: 0] += ingredient.amount
        }
        return order.map { Ingredient(fruit: $0, amount: amounts[$0]!) }
    }
}

extension Menu {
    /// Prices `lines` as the menu stands: every juice on sale, every option its group's, each
    /// group's count within its bounds; or the refusal for the first line that is not.
    public func price(_ lines: [CartLine]) throws(SaleError) -> PricedCart {
        guard Prices.lines.contains(lines.count) else { throw .badQuantity }
        var sold: [SoldLine] = []
        for line in lines { sold.append(try price(line)) }
        return PricedCart(lines: sold)
    }

    private func price(_ line: CartLine) throws(SaleError) -> SoldLine {
        guard Prices.quantity.contains(line.quantity) else { throw .badQuantity }
        guard let juice = juice(line.juice) else { throw .unknownJuice(line.juice) }
        guard !juice.soldOut, !juice.retired else { throw .soldOut(juice.id) }
        for group in line.options.keys where !juice.optionGroups.contains(group) {
            throw .unknownOption(group: group, option: line.options[group]?.first)
        }
        var options: [SoldOption] = []
        var percent = 100
        var adds: [Ingredient] = []
        for groupID in juice.optionGroups {
            guard let group = optionGroup(groupID) else { continue }
            for option in try group.choose(line.options[groupID] ?? group.defaults) {
                options.append(SoldOption(group: group.id, id: option.id, name: option.name, price: option.price))
                percent = percent * option.recipePercent / 100
                adds += option.adds
            }
        }
        let unitPrice = juice.price + options.reduce(0) { $0 + $1.price }
        let cup = juice.recipe.map { Ingredient(fruit: $0.fruit, amount: ($0.amount * percent + 99) / 100) } + adds
        let uses = cup.perFruit.filter { $0.amount > 0 }.map { Ingredient(fruit: $0.fruit, amount: $0.amount * line.quantity) }
        return SoldLine(juice: juice.id, name: juice.name, quantity: line.quantity, options: options,
                        unitPrice: unitPrice, amount: unitPrice * line.quantity, uses: uses)
    }
}
