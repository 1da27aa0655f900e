import struct Foundation.Date

/// Why a fruit count changed.
public enum StockChangeCause: String, Codable, Sendable, CaseIterable {
    /// A juice was made.
    case order
    /// Staff set the count (stepper, stock edit).
    case edit
    /// Fruit arrived and was added.
    case delivery
    /// An order was cancelled and its fruit put back.
    case cancel
}

/// A change staff make to one fruit's count: set it (an edit) or add what arrived (a delivery).
public enum StockChange: Hashable, Sendable {
    case set(Int)
    case deliver(Int)

    public var cause: StockChangeCause {
        switch self {
        case .set: .edit
        case .deliver: .delivery
        }
    }

    /// Checks the number given, before anything is read.
    public func validate() throws(JuiceBarError) {
        switch self {
        case .set(let count), .deliver(let count): try StockLimits.validate(count: count)
        }
    }

    /// The count this change makes of `current`; a delivery must keep it within bounds.
    public func apply(to current: Int) throws(JuiceBarError) -> Int {
        switch self {
        case .set(let count):
            return count
        case .deliver(let count):
            try StockLimits.validate(count: current + count)
            return current + count
        }
    }
}

/// One change of one fruit's count: enough to explain the stock of any moment.
public struct LedgerEntry: Hashable, Codable, Sendable {
    public var id: Int64
    public var time: Date
    public var fruit: FruitID
    public var delta: Int
    public var countAfter: Int
    public var cause: StockChangeCause
    public var juice: JuiceID?
    public var orderID: Int64?
    public var actor: String

    public init(id: Int64, time: Date, fruit: FruitID, delta: Int, countAfter: Int,
                cause: StockChangeCause, juice: JuiceID?, orderID: Int64?, actor: String) {
        self.id = id
        self.time = time
        self.fruit = fruit
        self.delta = delta
        self.countAfter = countAfter
        self.cause = cause
        self.juice = juice
        self.orderID = orderID
        self.actor = actor
    }
}
