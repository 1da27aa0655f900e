import Foundation
import JuiceBar
import Storage
import Synchronization

/// The juice bar as the server sees it: writes go to the store, reads come from the snapshot
/// the last commit left, and every change is announced on the live broadcaster.
public final class JuiceBarService: Sendable {
    private let store: any JuiceBarStore
    private let live: LiveUpdates
    private let state: Mutex<State>

    struct State {
        var menu: Menu
        var stock: StockSnapshot
    }

    /// What a `stock` event carries: the counts and the version that orders them.
    struct StockEvent: Encodable {
        let stock: Stock
        let version: Int64
    }

    public init(store: any JuiceBarStore, live: LiveUpdates) async throws {
        self.store = store
        self.live = live
        state = Mutex(State(menu: try await store.menu(), stock: try await store.stock()))
    }

    public var menu: Menu { state.withLock { $0.menu } }
    public var stock: StockSnapshot { state.withLock { $0.stock } }

    public func order(_ juice: JuiceID, actor: String, member: Int64? = nil) async throws -> OrderReceipt {
        let receipt = try await store.order(juice, actor: actor, member: member)
        adopt(receipt.stock)
        return receipt
    }

    public func setStock(_ fruit: FruitID, to count: Int, actor: String) async throws -> StockSnapshot {
        let snapshot = try await store.setStock(fruit, to: count, actor: actor)
        adopt(snapshot)
        return snapshot
    }

    /// A member's most-ordered juice that the stock can make now, from their orders (newest first);
    /// menu and stock are read together, from the same commit.
    public func recommendation(fromOrders orders: [Order]) -> Juice? {
        state.withLock { $0.menu.recommendation(fromOrders: orders.map(\.juice), stock: $0.stock.stock) }
    }

    public func orders(member: Int64? = nil, limit: Int?) async throws -> [Order] {
        try await store.orders(member: member, limit: limit)
    }

    /// Reloads menu and stock from the store: after a write this process did not make (the CLI's).
    public func refresh() async throws {
        let menu = try await store.menu()
        let menuChanged = state.withLock { state in
            defer { state.menu = menu }
            return state.menu != menu
        }
        if menuChanged { live.publish(LiveEvent(name: "menu", payload: menu)) }
        adopt(try await store.stock())
    }

    /// Takes a snapshot if it is newer than the one held, and announces it.
    /// Commits can come back out of order; the version keeps the newest.
    private func adopt(_ snapshot: StockSnapshot) {
        let isNewer = state.withLock { state in
            guard snapshot.version > state.stock.version else { return false }
            state.stock = snapshot
            return true
        }
        if isNewer { live.publish(stockEvent(snapshot)) }
    }

    func stockEvent(_ snapshot: StockSnapshot) -> LiveEvent {
        LiveEvent(name: "stock", payload: StockEvent(stock: snapshot.stock, version: snapshot.version))
    }

    /// The event a new listener starts from: the stock as it is now.
    var currentStockEvent: LiveEvent { stockEvent(stock) }
}
