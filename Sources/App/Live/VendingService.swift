import Foundation
import Storage
import Synchronization
import VendingMachine

/// The vending machine as the server sees it: operations go to the store, and every change is
/// announced on the live broadcaster as the machine's whole state.
public final class VendingService: Sendable {
    private let store: any VendingStore
    private let live: LiveUpdates
    private let now: @Sendable () -> Date
    /// The newest version announced, so that a slower answer never announces an older machine.
    private let announcedVersion = Mutex<Int64>(-1)

    public init(store: any VendingStore, live: LiveUpdates, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.live = live
        self.now = now
    }

    public func state() async throws -> VendingState { try await store.state(at: now()) }

    public func insert(_ amount: Int, actor: String) async throws -> VendingState {
        try await announced(store.insert(amount, actor: actor, at: now()))
    }

    public func purchase(_ product: ProductID, actor: String) async throws -> PurchaseReceipt {
        let receipt = try await store.purchase(product, actor: actor, at: now())
        _ = try await announced(receipt.state)
        return receipt
    }

    public func returnChange(actor: String) async throws -> ChangeReceipt {
        let receipt = try await store.returnChange(actor: actor, at: now())
        _ = try await announced(receipt.state)
        return receipt
    }

    public func restock(_ product: ProductID, count: Int, manufactured: Date?, actor: String) async throws -> VendingState {
        let time = now()
        return try await announced(store.restock(product, count: count, manufactured: manufactured ?? time, actor: actor, at: time))
    }

    public func history(limit: Int?) async throws -> [Sale] { try await store.history(limit: limit) }
    public func expiredItems() async throws -> [Item] { try await store.expiredItems(at: now()) }
    public func sales() async throws -> [ProductSales] { try await store.sales() }

    /// What the machine can sell for the current balance.
    public func purchasable() async throws -> [ProductStock] {
        let state = try await state()
        return state.products.filter { $0.stock > 0 && $0.product.price <= state.money.balance }
    }

    /// Announces the machine after a write this process did not make (the CLI's).
    public func refresh() async throws {
        _ = try await announced(state())
    }

    private func announced(_ state: VendingState) async throws -> VendingState {
        let isNewer = announcedVersion.withLock { version in
            guard state.version > version else { return false }
            version = state.version
            return true
        }
        if isNewer { live.publish(try await event(state)) }
        return state
    }

    /// The `vending` event: the machine's whole state and its sales, for screens to redraw from.
    func event(_ state: VendingState) async throws -> LiveEvent {
        LiveEvent(name: "vending", payload: VendingBody(state, sales: try await store.sales()))
    }
}

/// How the API and live updates show the machine.
struct VendingBody: Encodable {
    struct ProductBody: Encodable {
        let id: ProductID
        let name: String
        let names: JuiceBarName
        let kind: String
        let brand: String
        let volume: Int
        let price: Int
        let stock: Int
        let expired: Int
        let hot: Bool
        let description: String
    }
    typealias JuiceBarName = [String: String]

    let balance: Int
    let products: [ProductBody]
    let totals: MoneyTotals
    let sales: [ProductSales]?
    let version: Int64

    init(_ state: VendingState, sales: [ProductSales]? = nil) {
        balance = state.money.balance
        products = state.products.map(Self.product)
        totals = state.money
        self.sales = sales
        version = state.version
    }

    static func product(_ entry: ProductStock) -> ProductBody {
        let product = entry.product
        return ProductBody(
            id: product.id, name: product.name.ko, names: ["ko": product.name.ko, "en": product.name.en],
            kind: product.category.kind, brand: product.brand, volume: product.volumeML, price: product.price,
            stock: entry.stock, expired: entry.expired, hot: product.isHot, description: product.description)
    }
}
