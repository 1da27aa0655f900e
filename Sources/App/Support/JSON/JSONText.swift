import Foundation

/// JSON written by hand, for the answers hot enough that JSONEncoder's generic machinery shows in
/// profiles: the order answer, whose encoding showed in the server's CPU under load, the
/// machine's, and refusals (`APIError.json`), each order's answer once a rush has used up the fruit.
/// Callers write keys sorted, so the text is what `apiEncoder` would write (a test checks).
struct JSONText {
    /// The text so far: bytes appended to an array, which perf shows far cheaper per byte than
    /// ByteBuffer's writes, and what a kept answer holds anyway.
    private(set) var bytes: [UInt8]
    /// Whether the next value or key follows another and needs a comma first.
    private var followsValue = false

    init() {
        bytes = []
        bytes.reserveCapacity(512)
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        followsValue = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        followsValue = true
    }

    /// JSON written before, copied as it is: members of an object, the last one's key without its
    /// value (`"stock":`), which the caller writes next.
    mutating func fragment(_ json: String) {
        bytes.append(contentsOf: json.utf8)
        followsValue = false
    }

    /// `"key":`, to be followed by its value.
    mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
        followsValue = false
    }

    mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        // Names and ids need no escaping: looked over and copied whole from the string's own bytes
        // (a native string's are contiguous), not byte by byte through its UTF-8 view, whose
        // `contains(where:)` showed in perf on the committing thread for every kept order answer.
        let copiedWhole = value.utf8.withContiguousStorageIfAvailable { text in
            guard !text.contains(where: Self.needsEscape) else { return false }
            bytes.append(contentsOf: text)
            return true
        }
        if copiedWhole == true {
            bytes.append(UInt8(ascii: "\""))
            followsValue = true
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0..<0x20:
                bytes.append(contentsOf: String(format: "\\u%04x", byte).utf8)
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        followsValue = true
    }

    mutating func integer(_ value: some BinaryInteger) {
        separate()
        if let small = Int64(exactly: value), small >= 0 {
            digits(small, 1)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
        followsValue = true
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        followsValue = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        followsValue = true
    }

    /// A moment as `apiEncoder` writes it: ISO 8601 in UTC, whole seconds (`2026-11-20T09:05:07Z`).
    /// Written from the seconds by hand: ISO8601FormatStyle's calendar work was most of an order
    /// answer's cost in perf.
    mutating func date(_ value: Date) {
        separate()
        let seconds = Int64(value.timeIntervalSince1970.rounded(.down))
        let (days, second) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (year, month, day) = Self.civil(days: second < 0 ? days - 1 : days)
        let time = second < 0 ? second + 86_400 : second
        bytes.append(UInt8(ascii: "\""))
        digits(year, 4); bytes.append(UInt8(ascii: "-")); digits(month, 2)
        bytes.append(UInt8(ascii: "-")); digits(day, 2); bytes.append(UInt8(ascii: "T"))
        digits(time / 3600, 2); bytes.append(UInt8(ascii: ":")); digits(time / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":")); digits(time % 60, 2); bytes.append(contentsOf: "Z\"".utf8)
        followsValue = true
    }

    /// Year, month and day of the proleptic Gregorian calendar for days since 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `value` (not negative) in at least `width` digits, zero-padded.
    private mutating func digits(_ value: Int64, _ width: Int) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor <= value / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    private mutating func separate() {
        if followsValue { bytes.append(UInt8(ascii: ",")) }
    }
}
