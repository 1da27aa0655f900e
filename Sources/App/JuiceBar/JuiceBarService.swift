import Foundation
import JuiceBar
import Metrics
import Storage
import Synchronization

/// The juice bar as the server sees it: writes go to the store, reads come from the snapshot
/// the last commit left, and every change is announced on the live broadcaster.
public final class JuiceBarService: Sendable {
    private let store: any JuiceBarStore
    private let live: LiveUpdates
    private let state: Mutex<State>

    private let queueReads: Mutex<QueueReads> = Mutex(QueueReads())
    private let readySeconds = Timer(label: JuiceBarService.readyHistogram)

    struct State {
        var menu: Menu
        var stock: StockSnapshot
    }

    /// Whether the queue is being read again for the live screens, and whether a change came since.
    private struct QueueReads {
        var isReading = false
        var isStale = false
    }

    /// The histogram of seconds from `received` to `ready` on `/metrics`.
    public static let readyHistogram = "juicemaker_order_ready_seconds"
    /// Its buckets: a juice takes minutes, not milliseconds.
    public static let readyBuckets: [Duration] = [15, 30, 60, 120, 180, 300, 600, 900, 1800, 3600].map { .seconds($0) }

    /// What a `stock` event carries: the counts, the version that orders them, and the fruits at
    /// or below their reorder level.
    struct StockEvent: Encodable {
        let stock: Stock
        let version: Int64
        let low: [FruitID]
    }

    public init(store: any JuiceBarStore, live: LiveUpdates) async throws {
        self.store = store
        self.live = live
        state = Mutex(State(menu: try await store.menu(), stock: try await store.stock()))
    }

    public var menu: Menu { state.withLock { $0.menu } }
    public var stock: StockSnapshot { state.withLock { $0.stock } }

    /// Takes an order: made on the spot, or with `pickup`, queued as `received` with its number.
    /// `key`: the request's `Idempotency-Key`, kept with the order.
    public func order(_ request: OrderRequest, actor: String, key: IdempotentWrite? = nil) async throws -> OrderReceipt {
        let receipt = try await store.order(request, actor: actor, key: key)
        adopt(receipt.stock)
        if request.pickup { queueChanged() }
        return receipt
    }

    /// One cup of `juice` with its default options, unpaid.
    public func order(
        _ juice: JuiceID, actor: String, member: Int64? = nil, pickup: Bool = false, key: IdempotentWrite? = nil
    ) async throws -> OrderReceipt {
        try await order(.cup(of: juice, member: member, pickup: pickup), actor: actor, key: key)
    }

    /// Takes the payment of an order accepted unpaid.
    public func pay(order id: Int64, with payment: PaymentRequest, actor: String, key: IdempotentWrite? = nil) async throws -> Order {
        let order = try await store.pay(order: id, with: payment, actor: actor, key: key)
        queueChanged()
        return order
    }

    /// Staff move an order forward; `OrderError` for an unknown order or a move back.
    public func move(order id: Int64, to status: OrderStatus, actor: String, key: IdempotentWrite? = nil) async throws -> Order {
        let order = try await store.move(order: id, to: status, actor: actor, key: key)
        if status.isReady, let readyTime = order.readyTime, readyTime == order.statusTime {
            readySeconds.recordSeconds(readyTime.timeIntervalSince(order.time))
        }
        queueChanged()
        return order
    }

    /// Cancels an order and puts its fruit back.
    public func cancel(
        order id: Int64, by canceller: Canceller, actor: String, key: IdempotentWrite? = nil
    ) async throws -> OrderReceipt {
        let receipt = try await store.cancel(order: id, by: canceller, actor: actor, key: key)
        adopt(receipt.stock)
        queueChanged()
        return receipt
    }

    public func order(id: Int64) async throws -> Order? {
        try await store.order(id: id)
    }

    /// The active orders as the database has them now, oldest first.
    public func readQueue() async throws -> [Order] {
        try await store.queue()
    }

    /// How many drinks are ahead of a new order in `queue` (as just read) and about how long it will wait.
    public func wait(in queue: [Order]) async throws -> QueueWait {
        let ahead = queue.filter { !$0.status.isReady }.count
        let average = try await store.averageReadySeconds()
        return QueueWait(ahead: ahead, minutes: OrderRules.waitMinutes(ahead: ahead, averageSeconds: average),
                         averageReadySeconds: average)
    }

    /// Reads the queue again for the live screens, when any is open. Reads run one at a time and a
    /// change during one asks for one more, so the last read always starts after the last change.
    private func queueChanged() {
        guard live.hasListeners else { return }
        let startReading = queueReads.withLock { reads in
            reads.isStale = true
            defer { reads.isReading = true }
            return !reads.isReading
        }
        guard startReading else { return }
        Task {
            while queueReads.withLock({ reads in
                reads.isReading = reads.isStale
                reads.isStale = false
                return reads.isReading
            }) {
                guard let queue = try? await store.queue() else { continue }
                live.publish(queueEvent(queue))
            }
        }
    }

    func queueEvent(_ queue: [Order]) -> LiveEvent {
        LiveEvent(name: "queue", payload: queue.map { QueueEntry($0, now: Date()) })
    }

    /// The event a new listener starts from: the queue as it is now.
    func currentQueueEvent() async throws -> LiveEvent { queueEvent(try await store.queue()) }

    public func setStock(_ fruit: FruitID, to count: Int, actor: String) async throws -> StockSnapshot {
        let snapshot = try await store.setStock(fruit, to: count, actor: actor)
        adopt(snapshot)
        return snapshot
    }

    /// Staff set a fruit's reorder level; the pages hear which fruits are low now.
    public func setLevel(_ fruit: FruitID, to level: Int, actor: String) async throws -> Fruit {
        let commit = try await store.commit(.setLevel(fruit, level), actor: actor)
        adoptMenu(commit.menu)
        return commit.plan.newLevel!
    }

    /// Staff's menu writes (메뉴 관리): a juice added, edited or retired, an option group put. The
    /// pages hear the new menu.
    public func changeMenu(_ write: StockWrite, actor: String) async throws -> Menu {
        let commit = try await store.commit(write, actor: actor)
        adoptMenu(commit.menu)
        return commit.menu
    }

    /// The fruits at or below their reorder level now, with their counts.
    public var lowStock: [(fruit: Fruit, count: Int)] {
        state.withLock { state in state.menu.lowFruits(in: state.stock.stock).map { ($0, state.stock.stock[$0.id]) } }
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
        adoptMenu(try await store.menu())
        adopt(try await store.stock())
        queueChanged()
    }

    /// Takes the menu as a commit left it and announces it when it changed, with the stock (whose
    /// low fruits follow the menu's reorder levels).
    private func adoptMenu(_ menu: Menu) {
        let changed = state.withLock { state in
            defer { state.menu = menu }
            return state.menu != menu
        }
        guard changed else { return }
        live.publish(LiveEvent(name: "menu", payload: menu))
        live.publish(currentStockEvent)
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
        let low = state.withLock { $0.menu.lowFruits(in: snapshot.stock).map(\.id) }
        return LiveEvent(name: "stock", payload: StockEvent(stock: snapshot.stock, version: snapshot.version, low: low))
    }

    /// The event a new listener starts from: the stock as it is now.
    var currentStockEvent: LiveEvent { stockEvent(stock) }
}

/// What a member is told before ordering: `대기 N잔 · 약 M분`.
public struct QueueWait: Encodable, Sendable {
    /// Drinks received or being made.
    public let ahead: Int
    public let minutes: Int
    public let averageReadySeconds: Double?
}
