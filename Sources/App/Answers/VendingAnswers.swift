import Foundation
import JuiceBar
import ShopBasics
import Storage
import Synchronization
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
        product(entry.product, stock: entry.stock, expired: entry.expired)
    }

    static func product(_ product: VendingMachine.Product, stock: Int, expired: Int) -> Product {
        Product(
            id: product.id, name: product.name.ko, names: ["ko": product.name.ko, "en": product.name.en],
            kind: product.category.kind, category: product.category, brand: product.brand, volume: product.volumeML, price: product.price,
            stock: stock, expired: expired, hot: product.isHot, description: ProductDescription.of(product, in: .ko),
            descriptions: ProductDescription.inEveryLanguage(product))
    }

    /// The answer for `state` as `apiEncoder` writes it, written directly (see `JSONText`): every
    /// money insert and purchase answers with the whole machine, and encoding each product's
    /// descriptions anew was most of their CPU in `perf`. Each product's fixed fields are encoded
    /// once (`ProductJSON`); only the counts are written each time.
    static func json(_ state: VendingState) -> [UInt8] {
        var text = JSONText()
        write(state, to: &text)
        return text.bytes
    }

    static func write(_ state: VendingState, to text: inout JSONText) {
        text.beginObject()
        text.key("balance"); text.integer(state.money.balance)
        text.key("products"); text.beginArray()
        for entry in state.products {
            let fixed = ProductJSON.of(entry.product)
            text.beginObject()
            text.fragment(fixed.untilExpired); text.integer(entry.expired)
            text.fragment(fixed.untilStock); text.integer(entry.stock)
            text.fragment(fixed.rest)
            text.endObject()
        }
        text.endArray()
        text.key("totals"); text.beginObject()
        text.key("balance"); text.integer(state.money.balance)
        text.key("inserted"); text.integer(state.money.inserted)
        text.key("returned"); text.integer(state.money.returned)
        text.key("spent"); text.integer(state.money.spent)
        text.endObject()
        text.key("version"); text.integer(state.version)
        text.endObject()
    }
}

/// A product's fixed fields as `apiEncoder` writes them, in the three runs around its two counts
/// (`"expired"` and `"stock"`, in key order): encoded once per product, since products change
/// only with a migration.
struct ProductJSON: Sendable {
    /// `"brand":…,"expired":`
    let untilExpired: String
    /// `,"hot":…,"stock":`
    let untilStock: String
    /// `,"volume":…`
    let rest: String

    private static let known = Mutex<[VendingMachine.Product: ProductJSON]>([:])

    static func of(_ product: VendingMachine.Product) -> ProductJSON {
        if let known = known.withLock({ $0[product] }) { return known }
        let made = ProductJSON(product)
        known.withLock { $0[product] = made }
        return made
    }

    /// Encodes the product with two marker counts no product has, and cuts the text at them.
    private init(_ product: VendingMachine.Product) {
        let expiredMarker = -7_000_000_000_000_000_001, stockMarker = -7_000_000_000_000_000_002
        let whole = String(decoding: apiJSON(VendingAnswer.product(product, stock: stockMarker, expired: expiredMarker)),
                           as: UTF8.self)
        // Each count's digits, without its key (`"expired":`), which stays with the text before.
        let expired = whole.range(of: "\"expired\":\(expiredMarker)")!.upperBound
        let expiredDigits = whole.index(expired, offsetBy: -String(expiredMarker).count)
        let stock = whole.range(of: "\"stock\":\(stockMarker)")!.upperBound
        let stockDigits = whole.index(stock, offsetBy: -String(stockMarker).count)
        untilExpired = String(whole[whole.index(after: whole.startIndex)..<expiredDigits])
        untilStock = String(whole[expired..<stockDigits])
        rest = String(whole[stock..<whole.index(before: whole.endIndex)])
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

    /// The answer for `receipt` as `apiEncoder` writes it, written directly (see `VendingAnswer.json`).
    static func json(_ receipt: PurchaseReceipt) -> [UInt8] {
        let descriptions = ProductDescription.inEveryLanguage(receipt.product, item: receipt.item)
        var text = JSONText()
        text.beginObject()
        text.key("balance"); text.integer(receipt.state.money.balance)
        text.key("description"); text.string(descriptions[Language.ko.rawValue]!)
        text.key("descriptions"); text.beginObject()
        for (language, line) in descriptions.sorted(by: { $0.key < $1.key }) {
            text.key(language); text.string(line)
        }
        text.endObject()
        text.key("item"); text.beginObject()
        text.key("expires"); text.date(receipt.item.expires)
        text.key("id"); text.integer(receipt.item.id)
        text.key("manufactured"); text.date(receipt.item.manufactured)
        text.key("product"); text.string(receipt.item.product)
        text.endObject()
        text.key("machine"); VendingAnswer.write(receipt.state, to: &text)
        text.key("sale"); text.beginObject()
        text.key("id"); text.integer(receipt.sale.id)
        text.key("itemID"); text.integer(receipt.sale.itemID)
        text.key("price"); text.integer(receipt.sale.price)
        text.key("product"); text.string(receipt.sale.product)
        text.key("time"); text.date(receipt.sale.time)
        text.endObject()
        text.endObject()
        return text.bytes
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
