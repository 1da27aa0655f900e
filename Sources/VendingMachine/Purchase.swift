import Foundation

/// The rule for a purchase: it takes the oldest unexpired item of the product (the one the
/// machine finds first), and only if the balance pays for it. Refusals name their reason.
public enum PurchaseRule {
    /// - Parameters:
    ///   - unsold: how many items of the product are in the machine, fresh or expired;
    ///   - oldestFresh: the oldest item that has not expired, if any.
    public static func check(_ product: Product, unsold: Int, oldestFresh: Item?, balance: Int) throws(VendingError) -> Item {
        guard unsold > 0 else { throw .soldOut(product.id) }
        guard let oldestFresh else { throw .expired(product.id) }
        guard product.price <= balance else { throw .insufficientBalance(price: product.price, balance: balance) }
        return oldestFresh
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
