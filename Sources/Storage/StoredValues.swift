import Foundation
import Synchronization
import JuiceBar

/// How both engines store the values that are not plain numbers and text. One place, so that a
/// moment or a status list written by one engine reads back the same on the other.
extension Date {
    /// A moment as the shop stores it: seconds since 1970 as a double (SQLite REAL, PostgreSQL
    /// double precision). Cheap to write and to compare; GRDB's default text form runs a date
    /// formatter on every write, a third of an order's cost. SQLite rows are read back by GRDB,
    /// which takes a number as these same seconds (and still reads the text of old files).
    var storedValue: Double { timeIntervalSince1970 }

    /// A moment read back from its stored value.
    init(storedValue: Double) {
        self.init(timeIntervalSince1970: storedValue)
    }
}

extension OrderStatus {
    /// The queue's statuses as an SQL list, `('received', 'making', 'ready')`. PostgreSQL's queue
    /// reads and their partial index are written with it: a query uses such an index only when
    /// its condition is the index's own. (SQLite's are written with `SQLiteJuiceBarStore.isActive`.)
    static let activeSQL = "(" + active.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
}

/// A value kept whole as JSON text in one column: written and read whole, never queried inside.
protocol StoredAsJSON: Codable {}

extension StoredAsJSON {
    func storedDefinition() throws -> String { try StoredJSON.text(of: self) }

    init(storedDefinition: String) throws {
        self = try StoredJSON.value(Self.self, of: storedDefinition)
    }
}

/// The JSON text both engines keep a value as, for the values a conformance to `StoredAsJSON`
/// cannot name (Swift gives `Array` one conformance, taken by a juice's groups).
enum StoredJSON {
    static func text(of value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func value<Value: Decodable>(_ type: Value.Type, of text: String) throws -> Value {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

/// A payment or a refund, as `juice_order.payment` and `.refund` keep it.
extension Payment: StoredAsJSON {}

/// What an order sold and how it was paid, in the columns `juice_order` keeps them in: the lines
/// as JSON (never queried inside), the totals as numbers, a payment and a refund as JSON or none.
struct StoredSale {
    var lines: String
    var total: Int
    var vat: Int
    var payment: String?
    var refund: String?

    init(_ order: Order) throws {
        lines = try StoredJSON.text(of: order.lines)
        (total, vat) = (order.total, order.vat)
        payment = try order.payment?.storedDefinition()
        refund = try order.refund?.storedDefinition()
    }

    init(lines: String, total: Int, vat: Int, payment: String?, refund: String?) {
        (self.lines, self.total, self.vat, self.payment, self.refund) = (lines, total, vat, payment, refund)
    }

    /// `order` with the sale these columns hold.
    func applied(to order: Order) throws -> Order {
        var order = order
        order.lines = lines == "[]" ? [] : try StoredJSON.value([SoldLine].self, of: lines)
        (order.total, order.vat) = (total, vat)
        order.payment = try payment.map(Payment.init(storedDefinition:))
        order.refund = try refund.map(Payment.init(storedDefinition:))
        return order
    }
}

/// An option group (사이즈, 얼음 …) as `option_group.definition` keeps it: its bounds and options.
extension MenuOptionGroup: StoredAsJSON {}

/// A juice's option groups, in order, as `juice.option_groups` keeps them.
extension Array: StoredAsJSON where Element == OptionGroupID {}

/// Definitions read before, by their text. PostgreSQL's book carries the whole menu on every
/// batch of writes, and the text of an option group or of a juice's groups changes only when staff
/// change the menu, so each is decoded once rather than on every batch, off the write path's
/// hot loop.
final class ReadDefinitions<Value: StoredAsJSON & Sendable>: Sendable {
    private let read = Mutex<[String: Value]>([:])

    func value(of text: String) throws -> Value {
        if let known = read.withLock({ $0[text] }) { return known }
        let value = try Value(storedDefinition: text)
        read.withLock { $0[text] = value }
        return value
    }
}
