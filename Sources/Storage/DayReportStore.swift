import DayClose
import Foundation
import JuiceBar
import VendingMachine

/// A report as the store keeps it: the row's own number and day beside the sealed body.
public struct StoredReport: Hashable, Sendable {
    public var number: Int
    public var day: String
    public var body: String
    public var hash: String
}

/// The day reports, which are only ever added to (each engine's table refuses an update or a
/// delete), and the reads a report is made from beside the orders, ledger and sales.
public protocol DayReportStore: Sendable {
    /// Every report, oldest first.
    func reports() async throws -> [StoredReport]
    func report(number: Int) async throws -> StoredReport?
    /// The report with the highest number, the one the next follows.
    func latest() async throws -> StoredReport?
    /// The newest order, ledger line, money line and sale, read once every write before has
    /// committed and while none is between taking its id and committing.
    func closingMarks() async throws -> RecordMarks
    /// Of `orders`, those with cancel lines in the stock ledger, however recent.
    func ordersWithCancelLines(among orders: [Int64]) async throws -> Set<Int64>
    /// Adds `report`; throws `DayCloseError.alreadyClosed` when its day or number is taken.
    func append(_ report: SealedReport) async throws
}
