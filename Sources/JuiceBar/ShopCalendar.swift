import Foundation

/// Days as the shop counts them: in its own time zone. Shared by every part of the shop
/// (vending dates, events, "hide for today").
public struct ShopCalendar: Sendable {
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

    /// `YYYY-MM-DD` as the midnight starting that day; nil for anything else, such as 2026-02-30.
    public func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard text.count == 10, parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2] else {
            return nil
        }
        let wanted = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: wanted),
              calendar.dateComponents([.year, .month, .day], from: date) == wanted
        else { return nil }
        return date
    }
}
