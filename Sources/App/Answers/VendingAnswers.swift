import Foundation
import Storage
import VendingMachine

// The vending machine's answers, as the JSON API and live updates send them and the CLI's
// `--json` prints them.

/// The machine: balance, each product with its stock, the money totals (`GET /api/vending`).
public struct VendingAnswer: Encodable, Sendable {
    public struct Product: Encodable, Sendable {
        public let id: ProductID
        public let name: String
        public let names: [String: String]
        public let kind: String
        public let category: VendingMachine.Category
        public let brand: String
        public let volume: Int
        public let price: Int
        public let stock: Int
        public let expired: Int
        public let hot: Bool
        public let description: String
        public let descriptions: [String: String]
    }
    public let balance: Int
    public let products: [Product]
    public let totals: MoneyTotals
    public let version: Int64

    public init(_ state: VendingState) {
        balance = state.money.balance
        products = state.products.map(Self.product)
        totals = state.money
        version = state.version
    }

    public static func product(_ entry: ProductStock) -> Product {
        let product = entry.product
        return Product(
            id: product.id, name: product.name.ko, names: ["ko": product.name.ko, "en": product.name.en],
            kind: product.category.kind, category: product.category, brand: product.brand, volume: product.volumeML, price: product.price,
            stock: entry.stock, expired: entry.expired, hot: product.isHot, description: ProductDescription.of(product, in: .ko),
            descriptions: ProductDescription.inEveryLanguage(product))
    }
}

/// A purchase: what came out, with its dates, and the machine it left (`POST /api/vending/purchases`).
public struct PurchaseAnswer: Encodable, Sendable {
    /// What came out, with its dates: in Korean, and in each language by code (as `name`, `names`).
    public let description: String
    public let descriptions: [String: String]
    public let balance: Int
    public let sale: Sale
    public let item: Item
    public let machine: VendingAnswer

    public init(_ receipt: PurchaseReceipt) {
        description = ProductDescription.of(receipt.product, item: receipt.item, in: .ko)
        descriptions = ProductDescription.inEveryLanguage(receipt.product, item: receipt.item)
        balance = receipt.state.money.balance
        sale = receipt.sale
        item = receipt.item
        machine = VendingAnswer(receipt.state)
    }
}

/// Change handed back, by bill and coin, and the balance left (`POST /api/vending/change`).
public struct ChangeAnswer: Encodable, Sendable {
    public let returned: Int
    public let units: [String: Int]
    public let balance: Int

    public init(_ receipt: ChangeReceipt) {
        returned = receipt.change.returned
        units = Dictionary(uniqueKeysWithValues: receipt.change.units.map { (String($0.key), $0.value) })
        balance = receipt.state.money.balance
    }
}
