import ShopBasics

/// What staff change of a juice on the menu (`PATCH /api/menu/juices/{id}`): each field given
/// replaces the juice's own, the rest stay.
public struct JuiceEdit: Hashable, Codable, Sendable {
    public var name: LocalizedName?
    public var price: Int?
    public var recipe: [Ingredient]?
    public var optionGroups: [OptionGroupID]?
    public var soldOut: Bool?

    public init(name: LocalizedName? = nil, price: Int? = nil, recipe: [Ingredient]? = nil,
                optionGroups: [OptionGroupID]? = nil, soldOut: Bool? = nil) {
        (self.name, self.price, self.recipe, self.optionGroups, self.soldOut) = (name, price, recipe, optionGroups, soldOut)
    }

    /// `juice` with this edit applied.
    public func applied(to juice: Juice) -> Juice {
        var edited = juice
        if let name { edited.name = name }
        if let price { edited.price = price }
        if let recipe { edited.recipe = recipe }
        if let optionGroups { edited.optionGroups = optionGroups }
        if let soldOut { edited.soldOut = soldOut }
        return edited
    }
}

extension Menu {
    /// Checks what a juice sells by: its price within bounds, and each option group one the
    /// shop has, named once.
    public func validateSale(of juice: Juice) throws(SaleError) {
        guard Prices.range.contains(juice.price) else { throw .priceOutOfRange(juice.price) }
        var seen: Set<OptionGroupID> = []
        for group in juice.optionGroups {
            guard optionGroup(group) != nil, seen.insert(group).inserted else {
                throw .unknownOption(group: group, option: nil)
            }
        }
    }

    /// The juices a customer can pick: every one not retired, in menu order.
    public var onSale: [Juice] { juices.filter { !$0.retired } }
}
