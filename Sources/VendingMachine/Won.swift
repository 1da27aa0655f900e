import Foundation

/// Money and days as people read them.
public enum Won {
    /// `6,000원`.
    public static func format(_ amount: Int) -> String { grouped(amount) + "원" }

    /// `1,000,000`: digits in groups of three, as both of the shop's languages write them.
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)  // abs(Int.min) would trap
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (number < 0 ? "-" : "") + grouped
    }

    /// `2026-11-23`.
    public static func day(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day())
    }
}
