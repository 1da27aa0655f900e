import ShopBasics

public enum OptionGroupKind {}
public enum OptionKind {}

/// An option group's id, e.g. `size`.
public typealias OptionGroupID = ModelID<OptionGroupKind>
/// An option's id within its group, e.g. `large`.
public typealias OptionID = ModelID<OptionKind>

/// One choice in a group (라지, 얼음 적게, 요거트 추가): what it adds to a cup's price and what it
/// changes in the fruit the cup takes.
public struct MenuOption: Hashable, Codable, Sendable {
    public var id: OptionID
    public var name: LocalizedName
    /// Won added to the cup's price (VAT included), 0 or more.
    public var price: Int
    /// The juice's recipe scaled by this many percent for the cup: 150 makes a large cup take
    /// half as much fruit again, each amount rounded up. 100 leaves it as it is.
    public var recipePercent: Int
    /// Stock the option takes for each cup besides the recipe (요거트 추가 takes a yoghurt).
    public var adds: [Ingredient]

    public init(id: OptionID, name: LocalizedName, price: Int = 0, recipePercent: Int = 100, adds: [Ingredient] = []) {
        (self.id, self.name, self.price, self.recipePercent, self.adds) = (id, name, price, recipePercent, adds)
    }

    /// An option as staff send it: only `id` and `name` are needed; no extra price, the recipe
    /// as it is and nothing added unless said.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(OptionID.self, forKey: .id), name: try container.decode(LocalizedName.self, forKey: .name),
                  price: try container.decodeIfPresent(Int.self, forKey: .price) ?? 0,
                  recipePercent: try container.decodeIfPresent(Int.self, forKey: .recipePercent) ?? 100,
                  adds: try container.decodeIfPresent([Ingredient].self, forKey: .adds) ?? [])
    }
}

/// Options a juice offers as one choice (사이즈: exactly one; 추가: up to two), defined once for
/// the shop and attached to juices.
public struct MenuOptionGroup: Hashable, Codable, Sendable {
    public var id: OptionGroupID
    public var name: LocalizedName
    /// How many options a cup must have from this group (0: it may have none).
    public var min: Int
    /// How many it may have at most.
    public var max: Int
    public var options: [MenuOption]

    public init(id: OptionGroupID, name: LocalizedName, min: Int, max: Int, options: [MenuOption]) {
        (self.id, self.name, self.min, self.max, self.options) = (id, name, min, max, options)
    }

    public func option(_ id: OptionID) -> MenuOption? { options.first { $0.id == id } }

    /// What a cup gets when its order names nothing from this group: the first `min` options
    /// (for 사이즈, 레귤러), none when the group may be left empty.
    public var defaults: [OptionID] { options.prefix(min).map(\.id) }

    /// The options `chosen` names, in the group's order, or the refusal that says what is wrong:
    /// an option the group lacks, one named twice, fewer than `min` or more than `max`.
    public func choose(_ chosen: [OptionID]) throws(SaleError) -> [MenuOption] {
        var picked: [MenuOption] = []
        for id in chosen {
            guard let option = option(id) else { throw .unknownOption(group: self.id, option: id) }
            guard !picked.contains(option) else { throw .repeatedOption(group: self.id, option: id) }
            picked.append(option)
        }
        guard picked.count >= min else { throw .optionsRequired(group: self.id, min: min) }
        guard picked.count <= max else { throw .tooManyOptions(group: self.id, max: max) }
        return options.filter(picked.contains)
    }

    /// Checks the group's own shape before the shop keeps it.
    public func validate(in menu: Menu) throws(SaleError) {
        guard Identifier.isValid(id.rawValue) else { throw .invalidGroup(id) }
        guard !name.ko.isEmpty, !name.en.isEmpty, WrittenText.isAcceptable(name.ko), WrittenText.isAcceptable(name.en),
              !options.isEmpty, 0 <= min, min <= max, max <= options.count,
              Set(options.map(\.id)).count == options.count
        else { throw .invalidGroup(id) }
        for option in options {
            guard Identifier.isValid(option.id.rawValue), !option.name.ko.isEmpty, !option.name.en.isEmpty,
                  WrittenText.isAcceptable(option.name.ko), WrittenText.isAcceptable(option.name.en),
                  Prices.range.contains(option.price), Prices.recipePercent.contains(option.recipePercent),
                  option.adds.allSatisfy({ menu.fruit($0.fruit) != nil && StockLimits.recipeAmount.contains($0.amount) })
            else { throw .invalidGroup(id) }
        }
    }
}

/// The bounds of the shop's prices.
public enum Prices {
    /// A juice's price and an option's extra, in won.
    public static let range = 0...1_000_000
    /// How far an option may scale a recipe: from none of it to ten times it.
    public static let recipePercent = 0...1_000
    /// Cups of one line.
    public static let quantity = 1...99
    /// Lines of one order.
    public static let lines = 1...20
    /// Cash handed over for one order.
    public static let received = 0...100_000_000

    /// The VAT inside a price that includes it (10 %): what a Korean receipt prints as 부가세,
    /// the total less its supply value (공급가액) rounded to the won.
    public static func vat(ofTotal total: Int) -> Int {
        total - (total * 10 + 5) / 11
    }
}
