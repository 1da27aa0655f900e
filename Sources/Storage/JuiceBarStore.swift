import JuiceBar

/// A juice that was made and the stock it left.
public struct OrderReceipt: Hashable, Codable, Sendable {
    public var order: Order
    public var stock: Stock
    public init(order: Order, stock: Stock) {
        self.order = order
        self.stock = stock
    }
}

/// The one owner of fruit stock. Every change of stock goes through here, each atomic,
/// each recorded in the ledger; an engine (SQLite, PostgreSQL) implements it.
public protocol JuiceBarStore: Sendable {
    func menu() async throws -> Menu
    func stock() async throws -> Stock

    /// Checks every ingredient and deducts them all in one transaction, or deducts nothing.
    /// Throws `OutOfStock` naming every short fruit, or `JuiceBarError.unknownJuice`.
    func order(_ juice: JuiceID, actor: String) async throws -> OrderReceipt

    /// Staff set a fruit's count (the stepper, a stock edit).
    func setStock(_ fruit: FruitID, to count: Int, actor: String) async throws -> Stock

    /// Fruit arrived: adds to the count, which must stay within bounds.
    func deliver(_ fruit: FruitID, count: Int, actor: String) async throws -> Stock

    func addFruit(_ fruit: Fruit, count: Int, actor: String) async throws -> Menu
    func addJuice(_ juice: Juice) async throws -> Menu

    /// Orders made, newest first; the newest `limit` when given.
    func orders(limit: Int?) async throws -> [Order]

    /// Stock changes, newest first; the newest `limit` when given.
    func ledger(limit: Int?) async throws -> [LedgerEntry]
}
