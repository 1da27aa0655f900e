/// Why the machine refuses: each with the API's code and a line a person can read.
public enum VendingError: Error, Hashable, Sendable, CustomStringConvertible {
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

    public var description: String {
        switch self {
        case .invalidDenomination(let amount):
            "\(Won.format(amount)) is not taken: insert 100, 500, 1,000, 5,000 or 10,000 won"
        case .balanceCapExceeded(let balance, let amount):
            "balance \(Won.format(balance)) + \(Won.format(amount)) would pass the \(Won.format(Denomination.balanceCap)) limit"
        case .insufficientBalance(let price, let balance):
            "price \(Won.format(price)) is more than the balance \(Won.format(balance))"
        case .soldOut(let product): "\(product) is sold out"
        case .expired(let product): "every \(product) left has expired"
        case .unknownProduct(let product): "unknown product '\(product)'"
        case .invalidCount(let count): "count \(count) is outside 1...\(Restock.maximumCount)"
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
