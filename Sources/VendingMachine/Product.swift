import Foundation
import ShopBasics

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

/// A category is written as plain fields beside its kind, `{"kind":"milk","farm":…,"fatPercent":…}`,
/// in the API, the CLI's JSON and the stored definitions (not Swift's `{"milk":{"_0":{…}}}`).
extension Category {
    private enum CodingKeys: String, CodingKey {
        case kind
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "milk": self = .milk(try Milk(from: decoder))
        case "soda": self = .soda(try Soda(from: decoder))
        case "coffee": self = .coffee(try Coffee(from: decoder))
        case let kind:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown kind '\(kind)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .milk(let milk): try milk.encode(to: encoder)
        case .soda(let soda): try soda.encode(to: encoder)
        case .coffee(let coffee): try coffee.encode(to: encoder)
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
