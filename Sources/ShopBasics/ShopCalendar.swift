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
    /// Counted from the zone's offset at `moment` rather than through `Calendar.dateComponents`,
    /// which (with `String(format:)` before it) showed in `perf` on every order.
    public func dayText(of moment: Date) -> String {
        let local = Int(moment.timeIntervalSince1970.rounded(.down)) + calendar.timeZone.secondsFromGMT(for: moment)
        let days = local >= 0 ? local / 86_400 : (local + 1) / 86_400 - 1
        let (year, month, day) = if days >= Self.firstGregorianDay {
            Self.civilDate(daysSince1970: days)
        } else {
            calendar.dateComponents([.year, .month, .day], from: moment).civilDate
        }
        return Self.digits(year, 4) + "-" + Self.digits(month, 2) + "-" + Self.digits(day, 2)
    }

    /// `moment` to the second as a receipt prints it, `YYYY-MM-DD HH:mm:ss` in the shop's zone.
    public func timeText(of moment: Date) -> String {
        let local = Int(moment.timeIntervalSince1970.rounded(.down)) + calendar.timeZone.secondsFromGMT(for: moment)
        let second = (local % 86_400 + 86_400) % 86_400
        return dayText(of: moment) + " " + Self.digits(second / 3_600, 2) + ":" + Self.digits(second / 60 % 60, 2)
            + ":" + Self.digits(second % 60, 2)
    }

    /// 1582-10-15, in days since 1970: Foundation's Gregorian calendar counts the days before it
    /// as Julian ones, and so does the shop's, through Foundation.
    private static let firstGregorianDay = -141_427

    /// The Gregorian date `days` after 1970-01-01: Howard Hinnant's `civil_from_days`, which counts
    /// in 400-year eras of 146,097 days, each year starting on March 1 so that leap days fall last.
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 is March
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
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

private extension DateComponents {
    var civilDate: (year: Int, month: Int, day: Int) { (year!, month!, day!) }
}
