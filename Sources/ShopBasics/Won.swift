/// Money as people read it.
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
}
