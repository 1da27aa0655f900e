import Foundation
import Storage
import Synchronization
import VendingMachine

/// The vending machine as the server sees it: operations go to the store; reads come from the
/// state the last commit left, held in memory until an item's date passes; every change is
/// announced on the live broadcaster as the machine's whole state.
public final class VendingService: Sendable {
    private let store: any VendingStore
    private let live: LiveUpdates
    private let now: @Sendable () -> Date
    private let snapshot = Mutex<VendingState?>(nil)

    public init(store: any VendingStore, live: LiveUpdates, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.live = live
        self.now = now
    }

    /// The machine now: from memory, unless an item has expired since it was taken.
    public func state() async throws -> VendingState {
        if let held = snapshot.withLock({ $0 }), held.isCurrent(at: now()) { return held }
        return try await adopt(store.state(at: now()))
    }

    /// `key`: the request's `Idempotency-Key`, kept with the money.
    public func insert(_ amount: Int, actor: String, key: IdempotentWrite? = nil) async throws -> VendingState {
        adopt(try await store.insert(amount, actor: actor, at: now(), key: key))
    }

    /// `key`: the request's `Idempotency-Key`, kept with the sale.
    public func purchase(_ product: ProductID, actor: String, key: IdempotentWrite? = nil) async throws -> PurchaseReceipt {
        let receipt = try await store.purchase(product, actor: actor, at: now(), key: key)
        adopt(receipt.state)
        return receipt
    }

    public func returnChange(actor: String) async throws -> ChangeReceipt {
        let receipt = try await store.returnChange(actor: actor, at: now())
        adopt(receipt.state)
        return receipt
    }

    public func restock(_ product: ProductID, count: Int, manufactured: Date?, actor: String) async throws -> VendingState {
        let time = now()
        return adopt(try await store.restock(product, count: count, manufactured: manufactured ?? time, actor: actor, at: time))
    }

    public func history(limit: Int?) async throws -> [Sale] { try await store.history(limit: limit) }
    public func expiredItems() async throws -> [Item] { try await store.expiredItems(at: now()) }
    public func sales() async throws -> [ProductSales] { try await store.sales() }

    /// What the machine can sell for the current balance.
    public func purchasable() async throws -> [ProductStock] {
        let state = try await state()
        return state.products.filter { $0.stock > 0 && $0.product.price <= state.money.balance }
    }

    /// Takes the machine again from the store: after a write this process did not make (the CLI's).
    public func refresh() async throws {
        adopt(try await store.state(at: now()))
    }

    /// Holds a state unless a newer one is held already (answers can come back out of commit
    /// order), and announces it when it differs from what screens last saw.
    @discardableResult
    private func adopt(_ state: VendingState) -> VendingState {
        let changed = snapshot.withLock { current -> Bool in
            if let current, current.version > state.version { return false }
            defer { current = state }
            return current.map { $0.version != state.version || $0.products != state.products } ?? true
        }
        if changed { live.publish(Self.event(state)) }
        return state
    }

    /// The event a new listener starts from: the machine as it is now.
    func currentEvent() async throws -> LiveEvent { Self.event(try await state()) }

    private static func event(_ state: VendingState) -> LiveEvent {
        LiveEvent(name: "vending", payload: VendingAnswer(state))
    }
}
