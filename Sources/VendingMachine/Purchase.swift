import Foundation

/// The rule for choosing what a purchase takes: the oldest unexpired item of the product,
/// and only if the balance pays for it. Refusals name their reason and change nothing.
public enum PurchaseRule {
    public static func choose(_ product: Product, from items: [Item], balance: Int, at now: Date) throws(VendingError) -> Item {
        guard !items.isEmpty else { throw .soldOut(product.id) }
        guard let oldest = items.filter({ !$0.isExpired(at: now) }).min(by: { ($0.manufactured, $0.id) < ($1.manufactured, $1.id) })
        else { throw .expired(product.id) }
        guard product.price <= balance else { throw .insufficientBalance(price: product.price, balance: balance) }
        return oldest
    }
}

/// A product sold.
public struct Sale: Hashable, Codable, Sendable {
    public var id: Int64
    public var product: ProductID
    public var price: Int
    public var time: Date
    public var itemID: Int64

    public init(id: Int64, product: ProductID, price: Int, time: Date, itemID: Int64) {
        self.id = id
        self.product = product
        self.price = price
        self.time = time
        self.itemID = itemID
    }
}

/// Units and won sold of one product.
public struct ProductSales: Hashable, Codable, Sendable {
    public var product: ProductID
    public var units: Int
    public var won: Int

    public init(product: ProductID, units: Int, won: Int) {
        self.product = product
        self.units = units
        self.won = won
    }
}
