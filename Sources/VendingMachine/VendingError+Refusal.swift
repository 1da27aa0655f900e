import Foundation

extension VendingError {
    /// A refusal that depends on the machine's state (money, items), as opposed to bad input.
    public var isRefusal: Bool {
        switch self {
        case .insufficientBalance, .soldOut, .expired, .balanceCapExceeded: true
        case .invalidDenomination, .unknownProduct, .invalidCount: false
        }
    }
}
