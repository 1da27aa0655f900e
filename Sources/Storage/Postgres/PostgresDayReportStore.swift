import DayClose
import Foundation
import JuiceBar
import PostgresNIO
import VendingMachine

/// Day reports in PostgreSQL, shared by every server. A trigger refuses any update, delete or
/// truncate of a report; the hash chain finds a report changed by someone who drops it.
public struct PostgresDayReportStore: DayReportStore {
    private let database: PostgresDatabase

    init(database: PostgresDatabase) {
        self.database = database
    }

    public func reports() async throws -> [StoredReport] {
        try await database.rows("SELECT \(unescaped: Self.reportColumns) FROM day_report ORDER BY number").map(Self.report)
    }

    public func report(number: Int) async throws -> StoredReport? {
        try await database.rows("SELECT \(unescaped: Self.reportColumns) FROM day_report WHERE number = \(number)")
            .first.map(Self.report)
    }

    public func latest() async throws -> StoredReport? {
        try await database.rows("SELECT \(unescaped: Self.reportColumns) FROM day_report ORDER BY number DESC LIMIT 1")
            .first.map(Self.report)
    }

    /// Takes the stock's and the machine's locks, as their writers do: every write that took an
    /// id before has committed, and none can take one until this reading ends.
    public func closingMarks() async throws -> RecordMarks {
        // READ COMMITTED whatever the server's default: the newest ids are read after the locks
        // are granted, not as of a snapshot taken while waiting for them.
        try await database.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { connection in
            try await connection.run("""
                SELECT pg_advisory_xact_lock(\(PostgresDatabase.Part.fruitStock.rawValue)),
                       pg_advisory_xact_lock(\(PostgresDatabase.Part.vendingMachine.rawValue))
                """)
            let (orders, ledger, money, sales) = try await connection.row("""
                SELECT (SELECT COALESCE(MAX(id), 0) FROM juice_order), (SELECT COALESCE(MAX(id), 0) FROM stock_ledger),
                       (SELECT COALESCE(MAX(id), 0) FROM vending_money_ledger), (SELECT COALESCE(MAX(id), 0) FROM vending_sale)
                """).decode((Int64, Int64, Int64, Int64).self)
            return RecordMarks(orders: orders, ledger: ledger, money: money, sales: sales)
        }
    }

    public func ordersWithCancelLines(among orders: [Int64]) async throws -> Set<Int64> {
        Set(try await database.rows("""
            SELECT DISTINCT order_id FROM stock_ledger WHERE cause = 'cancel' AND order_id = ANY(\(orders))
            """).map { try $0.decode(Int64.self) })
    }

    public func append(_ report: SealedReport) async throws {
        let added = try await database.rows("""
            INSERT INTO day_report (number, day, body, hash)
            VALUES (\(report.report.number), \(report.report.day), \(report.body), \(report.hash))
            ON CONFLICT DO NOTHING RETURNING 1
            """)
        guard !added.isEmpty else { throw DayCloseError.alreadyClosed(day: report.report.day) }
    }

    /// What every read of reports selects (`report(_:)` reads it).
    static let reportColumns = "number, day, body, hash"

    static func report(_ row: PostgresRow) throws -> StoredReport {
        let cells = row.makeRandomAccess()
        return StoredReport(number: try cells.decode("number"), day: try cells.decode("day"), body: try cells.decode("body"),
                            hash: try cells.decode("hash"))
    }
}
