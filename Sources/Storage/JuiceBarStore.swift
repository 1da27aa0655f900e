import JuiceBar

/// The stock as of one commit. `version` grows with every stock change (it is the newest ledger
/// entry's id), so of two snapshots a reader can always tell which is newer.
public struct StockSnapshot: Hashable, Codable, Sendable {
    public var stock: Stock
    public var version: Int64
}

/// A juice that was made and the stock it left.
public struct OrderReceipt: Hashable, Codable, Sendable {
    public var order: Order
    public var stock: StockSnapshot
}

/// The one owner of fruit stock. Every change of stock goes through `commit`, each atomic, each
/// recorded in the ledger; an engine (SQLite, PostgreSQL) reads the book and stores what the
/// domain decided (`JuiceBarBook`), and nothing else.
public protocol JuiceBarStore: Sendable {
    func menu() async throws -> Menu
    func stock() async throws -> StockSnapshot

    /// Decides `write` against the stock and menu as the last commit left them and stores what it
    /// decided, atomically, in one transaction with the other writes waiting at that moment.
    /// Throws the write's refusal (`OutOfStock`, `JuiceBarError`) with nothing stored. With `key`,
    /// the request's key is claimed and its answer kept in the same transaction (`IdempotentWrite`);
    /// a key an earlier request holds throws `KeyAlreadyUsed` with nothing done.
    func commit(_ write: StockWrite, actor: String, key: IdempotentWrite?) async throws -> StockCommit

    /// Orders made, newest first; the newest `limit` when given; only one member's when `member` is given.
    func orders(member: Int64?, limit: Int?) async throws -> [Order]

    /// Stock changes, newest first; the newest `limit` when given.
    func ledger(limit: Int?) async throws -> [LedgerEntry]

    func order(id: Int64) async throws -> Order?

    /// Orders in `window`, oldest first: a page of an export.
    func orders(in window: ExportWindow) async throws -> [Order]

    /// Stock ledger lines in `window`, oldest first: a page of an export.
    func ledger(in window: ExportWindow) async throws -> [LedgerEntry]

    /// The active orders (`received`, `making`, `ready`), oldest first.
    func queue() async throws -> [Order]

    /// The average seconds from `received` to `ready` of the most recent pickup orders made
    /// (`OrderRules.recentOrdersForAverage`); nil before the first.
    func averageReadySeconds() async throws -> Double?
}

extension OrderReceipt {
    /// The receipt of an order's commit.
    public init(_ commit: StockCommit) {
        self.init(order: commit.plan.order!, stock: commit.snapshot)
    }
}

extension JuiceBarStore {
    public func commit(_ write: StockWrite, actor: String) async throws -> StockCommit {
        try await commit(write, actor: actor, key: nil)
    }

    /// Prices the cart and takes every line's fruit together, or nothing: throws `OutOfStock`
    /// naming every short fruit, or the cart's `SaleError`. `key` is the request's
    /// `Idempotency-Key`, whose answer renders the receipt.
    public func order(_ request: OrderRequest, actor: String, key: IdempotentWrite? = nil) async throws -> OrderReceipt {
        OrderReceipt(try await commit(.order(request), actor: actor, key: key?.receiving(OrderReceipt.init)))
    }

    /// One cup of `juice` with its default options, unpaid; `member` links it to a member's account.
    public func order(
        _ juice: JuiceID, actor: String, member: Int64? = nil, pickup: Bool = false, key: IdempotentWrite? = nil
    ) async throws -> OrderReceipt {
        try await order(.cup(of: juice, member: member, pickup: pickup), actor: actor, key: key)
    }

    /// Takes the payment of an order accepted unpaid. `key` is the request's `Idempotency-Key`,
    /// whose answer renders the paid order.
    public func pay(order: Int64, with payment: PaymentRequest, actor: String, key: IdempotentWrite? = nil) async throws -> Order {
        Self.changedOrder(try await commit(.pay(order: order, payment), actor: actor, key: key?.receiving(Self.changedOrder)))
    }

    /// Staff move a queued order forward; throws `OrderError` for an unknown order or a move back.
    /// `key` is the request's `Idempotency-Key`, whose answer renders the moved order.
    public func move(order: Int64, to status: OrderStatus, actor: String, key: IdempotentWrite? = nil) async throws -> Order {
        Self.changedOrder(try await commit(.move(order: order, to: status), actor: actor,
                                           key: key?.receiving(Self.changedOrder)))
    }

    /// Cancels an order and puts its fruit back, with `cancel` lines in the ledger. `key` is the
    /// request's `Idempotency-Key`, whose answer renders the cancelled order's receipt.
    public func cancel(
        order: Int64, by canceller: Canceller, actor: String, key: IdempotentWrite? = nil
    ) async throws -> OrderReceipt {
        Self.cancelled(try await commit(.cancel(order: order, by: canceller), actor: actor,
                                        key: key?.receiving(Self.cancelled)))
    }

    /// The order a move or cancel changed.
    @Sendable private static func changedOrder(_ commit: StockCommit) -> Order { commit.plan.changedOrder! }

    /// A cancel's receipt: the cancelled order and the stock its fruit went back to.
    @Sendable private static func cancelled(_ commit: StockCommit) -> OrderReceipt {
        OrderReceipt(order: commit.plan.changedOrder!, stock: commit.snapshot)
    }

    /// Changes one fruit's count as staff asked, with its ledger entry.
    public func change(_ fruit: FruitID, by change: StockChange, actor: String) async throws -> StockSnapshot {
        try await commit(.change(fruit, change), actor: actor).snapshot
    }

    /// Staff set a fruit's count (the stepper, a stock edit).
    public func setStock(_ fruit: FruitID, to count: Int, actor: String) async throws -> StockSnapshot {
        try await change(fruit, by: .set(count), actor: actor)
    }

    /// Fruit arrived: adds to the count, which must stay within bounds.
    public func deliver(_ fruit: FruitID, count: Int, actor: String) async throws -> StockSnapshot {
        try await change(fruit, by: .deliver(count), actor: actor)
    }

    public func addFruit(_ fruit: Fruit, count: Int, actor: String) async throws -> Menu {
        try await commit(.addFruit(fruit, count: count), actor: actor).menu
    }

    public func addJuice(_ juice: Juice, actor: String = "system") async throws -> Menu {
        try await commit(.addJuice(juice), actor: actor).menu
    }

    public func orders(limit: Int?) async throws -> [Order] {
        try await orders(member: nil, limit: limit)
    }
}
