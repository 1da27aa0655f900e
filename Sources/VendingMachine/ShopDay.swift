import Foundation

/// Days as the shop writes them: `YYYY-MM-DD`, meaning midnight in the shop's time zone.
public enum ShopDay {
    public static func parse(_ text: String, in timeZone: TimeZone = .current) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard text.count == 10, parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2] else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
              calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day)
        else { return nil }
        return date
    }
}

extension VendingError {
    /// A refusal that depends on the machine's state (money, items), as opposed to bad input.
    public var isRefusal: Bool {
        switch self {
        case .insufficientBalance, .soldOut, .expired, .balanceCapExceeded: true
        case .invalidDenomination, .unknownProduct, .invalidCount: false
        }
    }
}
