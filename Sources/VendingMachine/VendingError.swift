/// Why the machine refuses, each with the API's code. What each says to a person is in the
/// App's word tables.
public enum VendingError: Error, Hashable, Sendable {
    case invalidDenomination(Int)
    case balanceCapExceeded(balance: Int, amount: Int)
    case insufficientBalance(price: Int, balance: Int)
    case soldOut(ProductID)
    case expired(ProductID)
    case unknownProduct(String)
    case invalidCount(Int)

    public var code: String {
        switch self {
        case .invalidDenomination: "invalid_amount"
        case .balanceCapExceeded: "balance_cap"
        case .insufficientBalance: "insufficient_balance"
        case .soldOut: "sold_out"
        case .expired: "expired"
        case .unknownProduct: "unknown_product"
        case .invalidCount: "invalid_count"
        }
    }
}

public enum Restock {
    /// The most items one restock may add.
    public static let maximumCount = 1_000

    public static func validate(count: Int) throws(VendingError) {
        guard (1...maximumCount).contains(count) else { throw .invalidCount(count) }
    }
}
