import DayClose
import Foundation
internal import GRDB
import JuiceBar
import VendingMachine

/// Day reports in SQLite. Triggers refuse any update or delete of a report, and pass over an
/// insert that would take a stored report's number or day (`INSERT OR REPLACE` deletes without
/// the delete trigger), so the table only grows; someone who drops them with the `sqlite3` shell still cannot change a report without
/// breaking its hash chain, which `days verify` finds.
public struct SQLiteDayReportStore: DayReportStore {
    private let database: SQLiteDatabase

    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func reports() async throws -> [StoredReport] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM day_report ORDER BY number").map(Self.report)
        }
    }

    public func report(number: Int) async throws -> StoredReport? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM day_report WHERE number = ?", arguments: [number]).map(Self.report)
        }
    }

    public func latest() async throws -> StoredReport? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM day_report ORDER BY number DESC LIMIT 1").map(Self.report)
        }
    }

    /// One writer commits at a time and ids are given as rows are inserted, so every row up to
    /// the newest id a read sees has committed.
    public func closingMarks() async throws -> RecordMarks {
        try await database.pool.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT COALESCE(MAX(id), 0) FROM juice_order), (SELECT COALESCE(MAX(id), 0) FROM stock_ledger),
                       (SELECT COALESCE(MAX(id), 0) FROM vending_money_ledger), (SELECT COALESCE(MAX(id), 0) FROM vending_sale)
                """)!
            return RecordMarks(orders: row[0], ledger: row[1], money: row[2], sales: row[3])
        }
    }

    public func ordersWithCancelLines(among orders: [Int64]) async throws -> Set<Int64> {
        try await database.pool.read { db in
            Set(try Int64.fetchAll(db, sql: Self.cancelledAmong, arguments: [ReportChain.canonicalJSON(orders)]))
        }
    }

    /// Which of the orders a JSON list names have a cancel's ledger lines, through
    /// `stock_ledger_cancelled_order`, which holds those lines alone.
    static let cancelledAmong = """
        SELECT DISTINCT order_id FROM stock_ledger WHERE cause = 'cancel' AND order_id IN (SELECT value FROM json_each(?))
        """

    public func append(_ report: SealedReport) async throws {
        let added = try await database.writer.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO day_report (number, day, body, hash) VALUES (?, ?, ?, ?)",
                           arguments: [report.report.number, report.report.day, report.body, report.hash])
            return db.changesCount == 1
        }
        guard added else { throw DayCloseError.alreadyClosed(day: report.report.day) }
    }

    static func report(_ row: Row) -> StoredReport {
        StoredReport(number: row["number"], day: row["day"], body: row["body"], hash: row["hash"])
    }
}
