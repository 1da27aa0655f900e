import Foundation
import VendingMachine

/// One product and how many of it the machine holds.
public struct ProductStock: Hashable, Codable, Sendable {
    public var product: Product
    /// Items that can be sold now.
    public var stock: Int
    /// Items still in the machine whose date has passed.
    public var expired: Int
}

/// The machine as of one commit; `version` grows with every change.
public struct VendingState: Hashable, Codable, Sendable {
    public var products: [ProductStock]
    public var money: MoneyTotals
    public var version: Int64
    /// When the next item in the machine expires: until then this state stays true without a write.
    public var nextExpiry: Date?

    public func isCurrent(at now: Date) -> Bool { nextExpiry.map { now < $0 } ?? true }
}

/// A sale and the machine it left.
public struct PurchaseReceipt: Hashable, Codable, Sendable {
    public var sale: Sale
    public var item: Item
    public var product: Product
    public var state: VendingState
}

/// Change handed back and the machine it left.
public struct ChangeReceipt: Hashable, Codable, Sendable {
    public var change: Change
    public var state: VendingState
}

/// The one owner of the vending machine's money and items. Every change goes through `commit`,
/// each atomic; an engine reads the machine and stores what the domain decided (`VendingBook`).
public protocol VendingStore: Sendable {
    func state(at now: Date) async throws -> VendingState
    /// Decides `write` against the machine as the last commit left it and stores what it decided,
    /// atomically, in one transaction with the other writes waiting at that moment. Throws the
    /// write's refusal (`VendingError`) with nothing stored. With `key`, the request's key is claimed
    /// and its answer kept in the same transaction (`IdempotentWrite`); a key an earlier request
    /// holds throws `KeyAlreadyUsed` with nothing done.
    func commit(_ write: VendingWrite, actor: String, at now: Date, key: IdempotentWrite?) async throws -> VendingCommit
    /// Sales, newest first.
    func history(limit: Int?) async throws -> [Sale]
    /// Sales in `window`, oldest first: a page of an export.
    func sales(in window: ExportWindow) async throws -> [Sale]
    /// The money ledger's lines in `window`, oldest first.
    func moneyLines(in window: ExportWindow) async throws -> [MoneyLine]
    func expiredItems(at now: Date) async throws -> [Item]
    func sales() async throws -> [ProductSales]
}

extension PurchaseReceipt {
    /// The receipt of a purchase's commit.
    public init(_ commit: VendingCommit) {
        let sold = commit.plan.sold!
        let product = commit.state.products.first { $0.product.id == sold.item.product }!.product
        self.init(sale: Sale(id: commit.saleID!, product: product.id, price: sold.price, time: commit.plan.time,
                             itemID: sold.item.id),
                  item: sold.item, product: product, state: commit.state)
    }
}

extension VendingStore {
    public func commit(_ write: VendingWrite, actor: String, at now: Date) async throws -> VendingCommit {
        try await commit(write, actor: actor, at: now, key: nil)
    }

    /// Throws `VendingError.invalidDenomination` or `.balanceCapExceeded`. `key` is the request's
    /// `Idempotency-Key`, whose answer renders the machine's state.
    public func insert(_ amount: Int, actor: String, at now: Date, key: IdempotentWrite? = nil) async throws -> VendingState {
        try await commit(.insert(amount), actor: actor, at: now, key: key?.receiving { (commit: VendingCommit) in commit.state }).state
    }

    /// Takes the oldest unexpired item if the balance pays for it; refuses with the reason otherwise.
    /// `key` is the request's `Idempotency-Key`, whose answer renders the receipt.
    public func purchase(_ product: ProductID, actor: String, at now: Date, key: IdempotentWrite? = nil) async throws -> PurchaseReceipt {
        PurchaseReceipt(try await commit(.purchase(product), actor: actor, at: now, key: key?.receiving(PurchaseReceipt.init)))
    }

    public func returnChange(actor: String, at now: Date) async throws -> ChangeReceipt {
        let commit = try await commit(.returnChange, actor: actor, at: now)
        return ChangeReceipt(change: commit.plan.change!, state: commit.state)
    }

    /// Adds `count` items made on `manufactured`.
    public func restock(_ product: ProductID, count: Int, manufactured: Date, actor: String, at now: Date) async throws -> VendingState {
        try await commit(.restock(product, count: count, manufactured: manufactured), actor: actor, at: now).state
    }
}

/// A product as the vending tables keep it: its whole definition as JSON text, since the three
/// levels of beverage properties differ by category.
extension Product: StoredAsJSON {}
