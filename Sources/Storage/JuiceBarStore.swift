import JuiceBar

/// The stock as of one commit. `version` grows with every stock change (it is the newest ledger
/// entry's id), so of two snapshots a reader can always tell which is newer.
public struct StockSnapshot: Hashable, Codable, Sendable {
    public var stock: Stock
    public var version: Int64
    public init(stock: Stock, version: Int64) {
        self.stock = stock
        self.version = version
    }
}

/// A juice that was made and the stock it left.
public struct OrderReceipt: Hashable, Codable, Sendable {
    public var order: Order
    public var stock: StockSnapshot
    public init(order: Order, stock: StockSnapshot) {
        self.order = order
        self.stock = stock
    }
}

/// The one owner of fruit stock. Every change of stock goes through here, each atomic,
/// each recorded in the ledger; an engine (SQLite, PostgreSQL) implements it.
public protocol JuiceBarStore: Sendable {
    func menu() async throws -> Menu
    func stock() async throws -> StockSnapshot

    /// Checks every ingredient and deducts them all in one transaction, or deducts nothing.
    /// Throws `OutOfStock` naming every short fruit, or `JuiceBarError.unknownJuice`.
    /// `member` links the order to a member's account.
    func order(_ juice: JuiceID, actor: String, member: Int64?) async throws -> OrderReceipt

    /// Changes one fruit's count as staff asked, with its ledger entry.
    func change(_ fruit: FruitID, by change: StockChange, actor: String) async throws -> StockSnapshot

    func addFruit(_ fruit: Fruit, count: Int, actor: String) async throws -> Menu
    func addJuice(_ juice: Juice) async throws -> Menu

    /// Orders made, newest first; the newest `limit` when given; only one member's when `member` is given.
    func orders(member: Int64?, limit: Int?) async throws -> [Order]

    /// Stock changes, newest first; the newest `limit` when given.
    func ledger(limit: Int?) async throws -> [LedgerEntry]
}

extension JuiceBarStore {
    /// An order at the counter, linked to no member.
    public func order(_ juice: JuiceID, actor: String) async throws -> OrderReceipt {
        try await order(juice, actor: actor, member: nil)
    }

    /// Staff set a fruit's count (the stepper, a stock edit).
    public func setStock(_ fruit: FruitID, to count: Int, actor: String) async throws -> StockSnapshot {
        try await change(fruit, by: .set(count), actor: actor)
    }

    /// Fruit arrived: adds to the count, which must stay within bounds.
    public func deliver(_ fruit: FruitID, count: Int, actor: String) async throws -> StockSnapshot {
        try await change(fruit, by: .deliver(count), actor: actor)
    }

    public func orders(limit: Int?) async throws -> [Order] {
        try await orders(member: nil, limit: limit)
    }
}
