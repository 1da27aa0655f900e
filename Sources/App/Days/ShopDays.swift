import DayClose
import Foundation
import JuiceBar
import ShopBasics
import Storage
import VendingMachine

/// Closing shop days and checking the reports they left. One reading of the records serves both,
/// so a report verifies exactly when nothing it covers has changed.
public struct ShopDays: Sendable {
    let juiceBar: any JuiceBarStore
    let vending: any VendingStore
    let store: any DayReportStore
    /// The shop's calendar at each use: a server's follows a change made by another process.
    private let currentCalendar: @Sendable () -> ShopCalendar
    let now: @Sendable () -> Date

    public init(_ stores: ShopDatabase, calendar: ShopCalendar, now: @escaping @Sendable () -> Date = Date.init) {
        self.init(stores, currentCalendar: { calendar }, now: now)
    }

    public init(_ stores: ShopDatabase, calendar: LiveShopCalendar, now: @escaping @Sendable () -> Date = Date.init) {
        self.init(stores, currentCalendar: { calendar.current }, now: now)
    }

    private init(_ stores: ShopDatabase, currentCalendar: @escaping @Sendable () -> ShopCalendar,
                 now: @escaping @Sendable () -> Date) {
        juiceBar = stores.juiceBar
        vending = stores.vending
        store = stores.days
        self.currentCalendar = currentCalendar
        self.now = now
    }

    var calendar: ShopCalendar { currentCalendar() }

    /// The shop day under way, `YYYY-MM-DD`: the one `close` closes.
    public var today: String { calendar.dayText(of: now()) }

    /// Closes the shop day under way and stores its report, chained to the one before. Refused
    /// when that day, or a later one (a clock or time zone set back), is closed already.
    public func close() async throws -> SealedReport {
        let last = try await store.latest().map { try SealedReport(body: $0.body, hash: $0.hash) }
        let marks = try await store.closingMarks()
        let closedAt = now()
        let day = calendar.dayText(of: closedAt)
        if let last, last.report.day >= day { throw DayCloseError.alreadyClosed(day: day) }
        let header = ReportHeader(
            number: (last?.report.number ?? 0) + 1, day: day, since: last?.report.closedAt, closedAt: moment(closedAt),
            through: marks, previousHash: last?.hash ?? ReportChain.genesis)
        let menu = try await juiceBar.menu()
        let tally = DayTally(juices: menu.juices.map(\.id.rawValue), fruits: menu.fruits.map(\.id.rawValue),
                             products: Catalog.products.map(\.id), after: last?.report)
        let sealed = SealedReport(try await report(header, after: last?.report.through, from: tally))
        try await store.append(sealed)
        return sealed
    }

    /// Every report, oldest first.
    public func reports() async throws -> [SealedReport] {
        try await store.reports().map { try SealedReport(body: $0.body, hash: $0.hash) }
    }

    public func report(number: Int) async throws -> SealedReport? {
        try await store.report(number: number).map { try SealedReport(body: $0.body, hash: $0.hash) }
    }

    /// Checks every report, oldest first: its hash, its link to the one before, and its figures
    /// recomputed from the records it covers. Throws the first that fails.
    public func verify() async throws -> [SealedReport] {
        var verified: [SealedReport] = []
        for stored in try await store.reports() {
            func broken(_ reason: BrokenReport.Reason) -> BrokenReport {
                BrokenReport(number: stored.number, day: stored.day, reason: reason)
            }
            guard let sealed = try? SealedReport(body: stored.body, hash: stored.hash) else { throw broken(.unreadable) }
            guard ReportChain.sha256(stored.body) == stored.hash else { throw broken(.hash) }
            let report = sealed.report
            guard report.number == stored.number, report.day == stored.day, report.number == verified.count + 1,
                  report.previousHash == (verified.last?.hash ?? ReportChain.genesis)
            else { throw broken(.chain) }
            let tally = DayTally(verifying: report, after: verified.last?.report)
            let recomputed = try await self.report(ReportHeader(of: report), after: verified.last?.report.through, from: tally)
            guard SealedReport(recomputed).body == stored.body else {
                let storedParts = Self.parts(of: report)
                let differing = Self.parts(of: recomputed).filter { name, text in storedParts[name] != text }
                throw broken(.records(differing.isEmpty ? ["report"] : differing.keys.sorted()))
            }
            guard try await openOrdersAddUp(report) else { throw broken(.records(["open"])) }
            verified.append(sealed)
        }
        return verified
    }

    /// The orders still in the queue at the close may have moved on since, but each is cancelled
    /// exactly when the ledger has given its fruit back: a status edited to `cancelled`, or back
    /// from it, shows here.
    private func openOrdersAddUp(_ report: ZReport) async throws -> Bool {
        guard !report.open.isEmpty else { return true }
        let cancelled = try await store.ordersWithCancelLines(among: report.open)
        for id in report.open {
            guard let order = try await juiceBar.order(id: id),
                  (order.status == .cancelled) == cancelled.contains(id) else { return false }
        }
        return true
    }

    /// Feeds `tally` the records `header` covers, page by page: those committed after the report
    /// before (`previous`, its marks) and up to this one's, and the earlier orders they reach back
    /// to (cancelled now, or unpaid at the report before). The tally carries the counts and the
    /// balance from the report before through these lines to the close.
    private func report(_ header: ReportHeader, after previous: RecordMarks?, from tally: DayTally) async throws -> ZReport {
        var tally = tally
        let marks = header.through
        func window(_ mark: KeyPath<RecordMarks, Int64>) -> ExportWindow {
            ExportWindow(after: previous?[keyPath: mark] ?? 0, through: marks[keyPath: mark])
        }
        try await window(\.ledger).pages(juiceBar.ledger(in:), id: \.id) { $0.forEach { tally.add($0) } }
        try await window(\.orders).pages(juiceBar.orders(in:), id: \.id) { $0.forEach { tally.add($0) } }
        for id in tally.earlierOrders { tally.add(earlier: id, try await juiceBar.order(id: id)) }
        try await window(\.money).pages(vending.moneyLines(in:), id: \.id) { $0.forEach { tally.add($0) } }
        try await window(\.sales).pages(vending.sales(in:), id: \.id) { $0.forEach { tally.add($0) } }
        return tally.report(header)
    }

    /// A moment as a report writes it: ISO 8601 in the shop's time zone, to the second.
    private func moment(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = calendar.calendar.timeZone
        return formatter.string(from: date)
    }

    /// A report's parts by name, each as its canonical JSON, to name the ones that differ.
    private static func parts(of report: ZReport) -> [String: String] {
        ["orders": ReportChain.canonicalJSON(report.orders), "fruits": ReportChain.canonicalJSON(report.fruits),
         "money": ReportChain.canonicalJSON(report.money), "sales": ReportChain.canonicalJSON(report.sales),
         "counts": ReportChain.canonicalJSON(report.counts), "totals": ReportChain.canonicalJSON(report.totals),
         "open": ReportChain.canonicalJSON(report.open), "takings": ReportChain.canonicalJSON(report.takings),
         "records": report.records]
    }
}
