import Crypto
import Foundation
import JuiceBar
import VendingMachine

/// Adds up a report's records into a Z report. Closing a day and verifying it later both feed it
/// the same records in the same order (the ledger, then orders, money and sales, each by id), so
/// a report recomputed from untouched records is the same text, byte for byte.
public struct DayTally: Sendable {
    private var orders: [String: JuiceTally] = [:]
    private var fruits: [String: Int] = [:]
    private var money = MoneyTally()
    private var sales: [String: ProductTally] = [:]
    private var cancelledOrders: Set<Int64> = []
    /// Orders still in the queue when the close read them: the only ones whose status may change
    /// after the close, so the only ones whose status the digest leaves out.
    private var openOrders: Set<Int64> = []
    private let openAtClose: Set<Int64>?
    /// Each fruit's count as its newest line added so far left it: once the lines up to the close
    /// are added, the counts at the close (as `money.balance` is the machine's).
    private var counts: [String: Int]
    private var records = SHA256()

    /// Starts every juice, fruit and product named at zero, so a report lists them even on a
    /// quiet day, and the counts and balance where `previous` (the report before) closed them.
    /// `open` is a stored report's `open`, when verifying it; at the close, the orders' statuses
    /// say which are open.
    public init(juices: [String], fruits: [String], products: [String], open: [Int64]? = nil, after previous: ZReport? = nil) {
        openAtClose = open.map(Set.init)
        for juice in juices { orders[juice] = JuiceTally() }
        for fruit in fruits { self.fruits[fruit] = 0 }
        for product in products { sales[product] = ProductTally() }
        counts = previous?.counts ?? [:]
        money.balance = previous?.money.balance ?? 0
    }

    /// A stock ledger line. A cancel's lines count its order as cancelled (once, however many
    /// fruits it gave back); they come before the orders, which are made unless cancelled so.
    public mutating func add(_ line: LedgerEntry) {
        switch line.cause {
        case .order, .cancel: fruits[line.fruit.rawValue, default: 0] -= line.delta
        case .edit, .delivery: break
        }
        counts[line.fruit.rawValue] = line.countAfter
        if line.cause == .cancel, let order = line.orderID, let juice = line.juice,
           cancelledOrders.insert(order).inserted {
            orders[juice.rawValue, default: JuiceTally()].cancelled += 1
        }
        record("ledger", line.id, line.time, line.fruit.rawValue, line.delta, line.countAfter, line.cause.rawValue,
               line.juice?.rawValue ?? "", line.orderID ?? 0, line.actor)
    }

    /// An order taken. It counts as cancelled when the ledger the report covers gave its fruit
    /// back, whatever its status says since. Its status and when it last changed go into the
    /// digest only once it is past changing (picked up or cancelled when the close read it).
    public mutating func add(_ order: Order) {
        let cancelled = cancelledOrders.contains(order.id)
        if !cancelled { orders[order.juice.rawValue, default: JuiceTally()].made += 1 }
        let open = openAtClose?.contains(order.id) ?? order.status.isActive
        if open { openOrders.insert(order.id) }
        record("order", order.id, order.time, order.number, order.day, order.juice.rawValue, order.pickup, order.actor,
               order.member ?? 0, cancelled, open ? "open" : order.status.rawValue, open ? nil : order.statusTime)
    }

    public mutating func add(_ line: MoneyLine) {
        switch line.movement.kind {
        case .insert: money.inserted += line.movement.amount
        case .spend: money.spent += line.movement.amount
        case .return: money.returned += line.movement.amount
        }
        money.balance = line.movement.balanceAfter
        record("money", line.id, line.time, line.movement.kind.rawValue, line.movement.amount, line.movement.balanceAfter,
               line.actor)
    }

    public mutating func add(_ sale: Sale) {
        sales[sale.product, default: ProductTally()].units += 1
        sales[sale.product, default: ProductTally()].won += sale.price
        record("sale", sale.id, sale.time, sale.product, sale.price, sale.itemID)
    }

    /// The report of these records, with what is known of the day and the close.
    public func report(_ header: ReportHeader) -> ZReport {
        let totals = ReportTotals(
            made: orders.values.map(\.made).reduce(0, +), cancelled: orders.values.map(\.cancelled).reduce(0, +),
            fruitUsed: fruits.values.reduce(0, +), units: sales.values.map(\.units).reduce(0, +),
            won: sales.values.map(\.won).reduce(0, +))
        return ZReport(
            number: header.number, day: header.day, since: header.since, closedAt: header.closedAt,
            through: header.through, orders: orders, fruits: fruits, money: money, sales: sales, counts: counts,
            totals: totals, open: openOrders.sorted(), records: records.finalize().hex, previousHash: header.previousHash)
    }

    /// Each record goes into the digest as one JSON array: no field can run into the next.
    private mutating func record(_ fields: any DigestValue...) {
        records.update(data: Data(("[" + fields.map(\.digestText).joined(separator: ",") + "]\n").utf8))
    }
}

/// A field as the digest writes it: JSON, written here rather than by `JSONEncoder`, which took
/// most of a close's time.
private protocol DigestValue {
    var digestText: String { get }
}

extension String: DigestValue {
    fileprivate var digestText: String {
        guard unicodeScalars.contains(where: { $0 == "\"" || $0 == "\\" || $0.value < 0x20 }) else { return "\"" + self + "\"" }
        var quoted = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case _ where scalar.value < 0x20: quoted += String(format: "\\u%04x", scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}

extension Int: DigestValue {
    fileprivate var digestText: String { String(self) }
}

extension Int64: DigestValue {
    fileprivate var digestText: String { String(self) }
}

extension Bool: DigestValue {
    fileprivate var digestText: String { self ? "true" : "false" }
}

extension Date: DigestValue {
    /// The bits of its stored seconds, which no change in how some version of Foundation prints a
    /// `Double` can alter.
    fileprivate var digestText: String { String(timeIntervalSince1970.bitPattern) }
}

extension Optional: DigestValue where Wrapped: DigestValue {
    fileprivate var digestText: String { self?.digestText ?? "null" }
}

/// What a report says of itself rather than of the records: which report, which day, the closes
/// it runs between, the records it covers, and the hash it follows.
public struct ReportHeader: Hashable, Sendable {
    public var number: Int
    public var day: String
    public var since: String?
    public var closedAt: String
    public var through: RecordMarks
    public var previousHash: String

    public init(number: Int, day: String, since: String?, closedAt: String, through: RecordMarks, previousHash: String) {
        self.number = number
        self.day = day
        self.since = since
        self.closedAt = closedAt
        self.through = through
        self.previousHash = previousHash
    }

    /// A stored report's own header, to recompute it from the records.
    public init(of report: ZReport) {
        self.init(number: report.number, day: report.day, since: report.since, closedAt: report.closedAt,
                  through: report.through, previousHash: report.previousHash)
    }
}
