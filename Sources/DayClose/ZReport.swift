import Crypto
import Foundation

/// The newest record of each kind a report covers: rows written after these came after the close.
/// Ids, not moments, since ids follow the order of commits (the writers take turns) while a
/// write's moment is taken before it waits its turn.
public struct RecordMarks: Hashable, Codable, Sendable {
    public var orders: Int64
    public var ledger: Int64
    public var money: Int64
    public var sales: Int64

    public init(orders: Int64, ledger: Int64, money: Int64, sales: Int64) {
        self.orders = orders
        self.ledger = ledger
        self.money = money
        self.sales = sales
    }
}

/// One juice's cups of the report: made (ordered, and not cancelled by the close) and cancelled
/// (cancels made in the report's time, also of orders an earlier report counted as made). Each
/// line of a cart counts its quantity under its own juice; an order from before carts is one cup.
public struct JuiceTally: Hashable, Codable, Sendable {
    public var made = 0
    public var cancelled = 0

    public init(made: Int = 0, cancelled: Int = 0) {
        self.made = made
        self.cancelled = cancelled
    }
}

/// The vending machine's money of the day, and the balance left in it at the close.
public struct MoneyTally: Hashable, Codable, Sendable {
    public var inserted = 0
    public var spent = 0
    public var returned = 0
    public var balance = 0

    public init(inserted: Int = 0, spent: Int = 0, returned: Int = 0, balance: Int = 0) {
        self.inserted = inserted
        self.spent = spent
        self.returned = returned
        self.balance = balance
    }
}

/// One product's sales of the day.
public struct ProductTally: Hashable, Codable, Sendable {
    public var units = 0
    public var won = 0

    public init(units: Int = 0, won: Int = 0) {
        self.units = units
        self.won = won
    }
}

/// The day in one line each: juices made and cancelled, fruit used, items sold and what they took.
public struct ReportTotals: Hashable, Codable, Sendable {
    public var made = 0
    public var cancelled = 0
    public var fruitUsed = 0
    public var units = 0
    public var won = 0

    public init(made: Int = 0, cancelled: Int = 0, fruitUsed: Int = 0, units: Int = 0, won: Int = 0) {
        self.made = made
        self.cancelled = cancelled
        self.fruitUsed = fruitUsed
        self.units = units
        self.won = won
    }
}

/// A shop day's Z report: what the shop did since the report before (every order, ledger line,
/// money line and sale committed after its marks) up to this close, so every record lands in
/// exactly one report. Orders are keyed by juice id, fruit by fruit id, sales by product id, as
/// everywhere in the API. `records` is the SHA-256 of every record the report covers
/// (`DayTally`), so an edit to any of them shows even where the totals stay the same.
public struct ZReport: Hashable, Codable, Sendable {
    public var number: Int
    /// The shop day closed, `YYYY-MM-DD` in the shop's time zone.
    public var day: String
    /// The close before, ISO 8601 with the shop's offset; absent for the first report.
    public var since: String?
    public var closedAt: String
    public var through: RecordMarks
    public var orders: [String: JuiceTally]
    /// Fruit used by the orders, less what cancels gave back.
    public var fruits: [String: Int]
    public var money: MoneyTally
    public var sales: [String: ProductTally]
    /// Each fruit's count at the close.
    public var counts: [String: Int]
    public var totals: ReportTotals
    /// Orders still in the queue at the close, by id: they may yet be made ready, picked up or
    /// cancelled without the report changing.
    public var open: [Int64]
    public var records: String
    /// The hash of the report before, or `ReportChain.genesis` for the first.
    public var previousHash: String
    /// The money of the counter's sales; absent from the reports closed before the shop sold by
    /// price, whose text (and so hash) stays as it was.
    public var takings: DayTakings?
}

/// A report as it is kept: its canonical JSON and that text's SHA-256. The text is what is
/// stored and hashed, so the hash never depends on how some later version encodes.
public struct SealedReport: Hashable, Sendable {
    public let report: ZReport
    public let body: String
    public let hash: String

    public init(_ report: ZReport) {
        self.report = report
        body = ReportChain.canonicalJSON(report)
        hash = ReportChain.sha256(body)
    }

    /// The report as the API and the CLI show it: its stored text with `hash` added at the end.
    public var json: String { String(body.dropLast()) + #","hash":"\#(hash)"}"# }

    /// Reports as a JSON array, each as `json` shows it.
    public static func json(_ reports: [SealedReport]) -> String {
        "[" + reports.map(\.json).joined(separator: ",") + "]"
    }

    /// A stored report, read back; throws when `body` is not a report at all.
    public init(body: String, hash: String) throws {
        report = try JSONDecoder().decode(ZReport.self, from: Data(body.utf8))
        self.body = body
        self.hash = hash
    }
}

/// Reports link into a chain: each one's body holds the hash of the one before, and its own hash
/// is taken over that body. Changing any report, or any record one covers, breaks the chain
/// from there on.
public enum ReportChain {
    /// The `previousHash` of the first report.
    public static let genesis = String(repeating: "0", count: 64)

    /// JSON with keys sorted and nothing escaped that need not be: one text for one report.
    public static func canonicalJSON<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Reports hold only whole numbers and text, which always encode.
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }

    public static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).hex
    }
}

extension Digest {
    /// The digest in lowercase hex, written straight into the string's storage: through an array
    /// of the digest's bytes and one of the text's, it showed in `perf` on every keyed request.
    public var hex: String {
        withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: bytes.count * 2) { text in
                let digits: StaticString = "0123456789abcdef"
                for (index, byte) in bytes.enumerated() {
                    text[2 * index] = digits.utf8Start[Int(byte >> 4)]
                    text[2 * index + 1] = digits.utf8Start[Int(byte & 0x0F)]
                }
                return bytes.count * 2
            }
        }
    }
}
