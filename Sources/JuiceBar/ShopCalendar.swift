import Foundation

/// Days as the shop counts them: in its own time zone. Shared by every part of the shop
/// (vending dates, events, "hide for today").
public struct ShopCalendar: Hashable, Sendable {
    public let calendar: Calendar

    public init(timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The midnight that starts the day after `now`.
    public func startOfNextDay(after now: Date) -> Date {
        calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now))!
    }

    /// The shop day `moment` falls in, as `YYYY-MM-DD`: order numbers start again at 1 on each.
    public func dayText(of moment: Date) -> String {
        let fields = calendar.dateComponents([.year, .month, .day], from: moment)
        // Not `String(format:)`: on every order, Foundation's format parsing showed in `perf`.
        return Self.digits(fields.year!, 4) + "-" + Self.digits(fields.month!, 2) + "-" + Self.digits(fields.day!, 2)
    }

    /// `value` in decimal, zero-padded to `width`.
    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count < width ? String(repeating: "0", count: width - text.count) + text : text
    }

    /// `YYYY-MM-DD` as the midnight starting that day; nil for anything else, such as 2026-02-30.
    public func day(_ text: String) -> Date? {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        // Digits only: `Int` would also take a sign, and `+026-11-01` is not the year 26.
        guard fields.map(\.count) == [4, 2, 2], fields.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]) else {
            return nil
        }
        let wanted = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: wanted),
              calendar.dateComponents([.year, .month, .day], from: date) == wanted
        else { return nil }
        return date
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
