/// The bills and coins the machine takes and gives back, largest first.
public enum Denomination {
    public static let all = [10_000, 5_000, 1_000, 500, 100]
    /// The most the machine holds for one customer.
    public static let balanceCap = 50_000
}

/// Change handed back: how many of each bill and coin.
public struct Change: Hashable, Codable, Sendable {
    public var returned: Int
    public var units: [Int: Int]

    /// The fewest bills and coins that make `amount` (greedy is optimal for these denominations).
    public init(amount: Int) {
        returned = amount
        units = [:]
        var left = amount
        for unit in Denomination.all where left >= unit {
            units[unit] = left / unit
            left %= unit
        }
    }
}

/// The machine's money: one balance for whoever stands at it, and the totals that must always
/// balance: inserted = spent + returned + balance.
public struct MoneyTotals: Hashable, Codable, Sendable {
    public var balance: Int
    public var inserted: Int
    public var spent: Int
    public var returned: Int

    public init(balance: Int = 0, inserted: Int = 0, spent: Int = 0, returned: Int = 0) {
        self.balance = balance
        self.inserted = inserted
        self.spent = spent
        self.returned = returned
    }

    public var isConserved: Bool { inserted == spent + returned + balance && balance >= 0 }

    public mutating func insert(_ amount: Int) throws(VendingError) {
        guard Denomination.all.contains(amount) else { throw .invalidDenomination(amount) }
        guard balance + amount <= Denomination.balanceCap else { throw .balanceCapExceeded(balance: balance, amount: amount) }
        balance += amount
        inserted += amount
    }

    public mutating func spend(_ price: Int) throws(VendingError) {
        guard price <= balance else { throw .insufficientBalance(price: price, balance: balance) }
        balance -= price
        spent += price
    }

    public mutating func returnChange() -> Change {
        let change = Change(amount: balance)
        returned += balance
        balance = 0
        return change
    }
}
