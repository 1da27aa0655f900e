import Crypto
import Foundation
import JuiceBar
import VendingMachine

/// Adds up a report's records into a Z report. Closing a day and verifying it later both feed it
/// the same records in the same order (the ledger, then orders, the earlier orders the report
/// reaches back to, money and sales, each by id), so a report recomputed from untouched records
/// is the same text, byte for byte.
public struct DayTally: Sendable {
    private var orders: [String: JuiceTally] = [:]
    private var fruits: [String: Int] = [:]
    private var money = MoneyTally()
    private var sales: [String: ProductTally] = [:]
    private var takings = TakingsTally()
    /// Orders the report's ledger cancels, each with its first cancel line's juice (what an order
    /// the store no longer finds is counted as), and those of them whose order the report holds.
    private var cancels: [Int64: JuiceID] = [:]
    private var cancelsCounted: Set<Int64> = []
    /// Orders still in the queue when the close read them: the only ones whose status may change
    /// after the close, so the only ones whose status the digest leaves out.
    private var openOrders: Set<Int64> = []
    private let openAtClose: Set<Int64>?
    /// Orders unpaid at the close, those of them picked up, and the earlier orders found paid, as
    /// a stored report lists them: the close decided it, and a payment since must not change it.
    private var unpaidAtClose: Set<Int64>?
    private var unpaidPickedUpAtClose: Set<Int64>?
    private var paidLateAtClose: Set<Int64>?
    /// Orders unpaid at the report before, whose payments this one takes in, and those of them it
    /// listed as picked up unpaid: this report is their last (see `DayTakings.unpaid`).
    private let carriedUnpaid: Set<Int64>
    private let pickedUpUnpaidBefore: Set<Int64>
    /// Whether the report has takings: all but those closed before the shop sold by price.
    private var keepsTakings = true
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
        carriedUnpaid = Set(previous?.takings?.unpaid ?? [])
        pickedUpUnpaidBefore = Set(previous?.takings?.unpaidPickedUp ?? [])
    }

    /// To recompute `stored`: what its close decided (open, unpaid and late-paid orders) is taken
    /// from it, and a report without takings gets none.
    public init(verifying stored: ZReport, after previous: ZReport?) {
        self.init(juices: Array(stored.orders.keys), fruits: Array(stored.fruits.keys), products: Array(stored.sales.keys),
                  open: stored.open, after: previous)
        unpaidAtClose = Set(stored.takings?.unpaid ?? [])
        unpaidPickedUpAtClose = Set(stored.takings?.unpaidPickedUp ?? [])
        paidLateAtClose = Set(stored.takings?.paidLate ?? [])
        keepsTakings = stored.takings != nil
    }

    /// A stock ledger line. A cancel's lines mark its order cancelled (once, however many lines it
    /// has); they come before the orders, which are made unless cancelled so.
    public mutating func add(_ line: LedgerEntry) {
        switch line.cause {
        case .order, .cancel: fruits[line.fruit.rawValue, default: 0] -= line.delta
        case .edit, .delivery: break
        }
        counts[line.fruit.rawValue] = line.countAfter
        if line.cause == .cancel, let order = line.orderID, let juice = line.juice, cancels[order] == nil {
            cancels[order] = juice
        }
        record("ledger", line.id, line.time, line.fruit.rawValue, line.delta, line.countAfter, line.cause.rawValue,
               line.juice?.rawValue ?? "", line.orderID ?? 0, line.actor)
    }

    /// An order taken. It counts as cancelled when the ledger the report covers gave its fruit
    /// back, whatever its status says since. Its status and when it last changed go into the
    /// digest only once it is past changing (picked up or cancelled when the close read it); its
    /// payment likewise only when it was paid by the close.
    public mutating func add(_ order: Order) {
        let cancelled = cancels[order.id] != nil
        if cancelled { countCancel(of: order) } else { count(order, as: \.made) }
        let open = openAtClose?.contains(order.id) ?? order.status.isActive
        if open { openOrders.insert(order.id) }
        record("order", order.id, order.time, order.number, order.day, order.juice.rawValue, order.pickup, order.actor,
               order.member ?? 0, cancelled, open ? "open" : order.status.rawValue, open ? nil : order.statusTime)
        // An order from before carts has no price or payment: its records stay as they were.
        guard !order.lines.isEmpty else { return }
        recordSale(of: order)
        if !cancelled { takings.sell(order.lines) }
        let unpaid = unpaidAtClose?.contains(order.id) ?? (order.payment == nil && order.total > 0 && !cancelled)
        if unpaid {
            takings.owe(order.id, pickedUp: unpaidPickedUpAtClose?.contains(order.id) ?? (order.status == .pickedUp))
            return
        }
        if let payment = order.payment { take(payment, of: order) }
        if cancelled, let refund = order.refund { giveBack(refund, of: order) }
    }

    /// Orders from before the report that it must read too: those its ledger cancels (their cups
    /// and refunds are this report's) and those unpaid at the report before (their payments may
    /// be). Read once the report's own orders are added, oldest first.
    public var earlierOrders: [Int64] {
        Set(cancels.keys).subtracting(cancelsCounted).union(carriedUnpaid).sorted()
    }

    /// One of `earlierOrders`, as the store has it (`nil`: it has none by that id).
    public mutating func add(earlier id: Int64, _ order: Order?) {
        let cancelledHere = cancels[id] != nil && !cancelsCounted.contains(id)
        guard let order else {
            if cancelledHere, let juice = cancels[id] { orders[juice.rawValue, default: JuiceTally()].cancelled += 1 }
            return
        }
        if cancelledHere { countCancel(of: order) }
        if carriedUnpaid.contains(id) { settle(carried: order, cancelledHere: cancelledHere) }
        if cancelledHere, let refund = order.refund { giveBack(refund, of: order) }
    }

    /// An order unpaid at the report before: paid since, its payment is this report's; still owed,
    /// it is carried on unless the report before listed it as picked up unpaid already.
    private mutating func settle(carried order: Order, cancelledHere: Bool) {
        if paidLateAtClose?.contains(order.id) ?? (order.payment != nil) {
            takings.paidLate(order.id)
            if let payment = order.payment { take(payment, of: order) }
            return
        }
        let owed = unpaidAtClose?.contains(order.id)
            ?? (!cancelledHere && order.status != .cancelled && !pickedUpUnpaidBefore.contains(order.id))
        if owed { takings.owe(order.id, pickedUp: unpaidPickedUpAtClose?.contains(order.id) ?? (order.status == .pickedUp)) }
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
            totals: totals, open: openOrders.sorted(), records: records.finalize().hex, previousHash: header.previousHash,
            takings: keepsTakings ? takings.result : nil)
    }

    /// Adds the order's cups to each line's juice (one cup of its juice before carts).
    private mutating func count(_ order: Order, as kind: WritableKeyPath<JuiceTally, Int>) {
        if order.lines.isEmpty { orders[order.juice.rawValue, default: JuiceTally()][keyPath: kind] += 1 }
        for line in order.lines { orders[line.juice.rawValue, default: JuiceTally()][keyPath: kind] += line.quantity }
    }

    private mutating func countCancel(of order: Order) {
        count(order, as: \.cancelled)
        cancelsCounted.insert(order.id)
    }

    /// The order's lines and prices, as sold: a price changed behind the shop changes the digest.
    private mutating func recordSale(of order: Order) {
        record("sold", order.id, order.total, order.vat)
        for line in order.lines {
            record("line", order.id, line.juice.rawValue, line.name.ko, line.name.en, line.quantity, line.unitPrice,
                   line.amount)
            for option in line.options {
                record("option", order.id, option.group.rawValue, option.id.rawValue, option.name.ko, option.name.en,
                       option.price)
            }
        }
    }

    private mutating func take(_ payment: Payment, of order: Order) {
        takings.take(payment, vat: order.vat)
        record("payment", order.id, payment.method.rawValue, payment.amount, payment.received, payment.change,
               payment.approval, payment.time)
    }

    private mutating func giveBack(_ refund: Payment, of order: Order) {
        takings.giveBack(refund, vat: order.vat)
        record("refund", order.id, refund.method.rawValue, refund.amount, refund.time)
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
