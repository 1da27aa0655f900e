import Foundation
import JuiceBar

/// A product's stable id (`bananaMilk`, `cola` …): what slots, buttons and the API name it by.
public typealias ProductID = String

/// What kind of beverage a product is, with what that kind alone has: level two of the catalog.
public enum Category: Hashable, Codable, Sendable {
    case milk(Milk)
    case soda(Soda)
    case coffee(Coffee)

    public struct Milk: Hashable, Codable, Sendable {
        public var farm: String
        public var fatPercent: Double
    }

    public struct Soda: Hashable, Codable, Sendable {
        public var calories: Int
        public var sugarFree: Bool
    }

    public struct Coffee: Hashable, Codable, Sendable {
        public var caffeineMG: Int
        public var isHot: Bool
    }

    public var kind: String {
        switch self {
        case .milk: "milk"
        case .soda: "soda"
        case .coffee: "coffee"
        }
    }
}

/// A beverage the machine sells. Level one (every beverage: brand, volume, price, name, shelf
/// life), level two (`category`: milk, soda or coffee) and level three (`flavor`: this product's own).
public struct Product: Hashable, Codable, Sendable, Identifiable {
    public var id: ProductID
    public var name: LocalizedName
    public var brand: String
    public var volumeML: Int
    public var price: Int
    public var shelfLifeDays: Int
    public var category: Category
    public var flavor: LocalizedName

    public init(id: ProductID, name: LocalizedName, brand: String, volumeML: Int, price: Int, shelfLifeDays: Int,
                category: Category, flavor: LocalizedName) {
        self.id = id
        self.name = name
        self.brand = brand
        self.volumeML = volumeML
        self.price = price
        self.shelfLifeDays = shelfLifeDays
        self.category = category
        self.flavor = flavor
    }

    public var isHot: Bool {
        if case .coffee(let coffee) = category { return coffee.isHot }
        return false
    }

    /// The last day an item made on `manufactured` may be sold; it expires at the end of that day.
    public func expiry(ofItemMadeOn manufactured: Date) -> Date {
        manufactured.addingTimeInterval(TimeInterval(shelfLifeDays) * 86_400)
    }
}

/// One physical bottle or can in the machine.
public struct Item: Hashable, Codable, Sendable {
    public var id: Int64
    public var product: ProductID
    public var manufactured: Date
    public var expires: Date

    public init(id: Int64, product: ProductID, manufactured: Date, expires: Date) {
        self.id = id
        self.product = product
        self.manufactured = manufactured
        self.expires = expires
    }

    public func isExpired(at now: Date) -> Bool { expires <= now }
}
