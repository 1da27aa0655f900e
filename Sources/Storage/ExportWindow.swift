import Foundation
internal import GRDB
import PostgresNIO

/// One page of rows to export, oldest first: those after `after` (an id) in the period, at most
/// `limit`. Exports read page after page, so a year of rows never sits in memory at once.
public struct ExportWindow: Sendable {
    public var after: Int64
    /// Rows at or after this moment (nil: from the first).
    public var from: Date?
    /// Rows before this moment (nil: to the last).
    public var until: Date?
    public var limit: Int
    /// The newest id to read: a day's report covers the rows up to its close.
    public var through: Int64

    public init(after: Int64 = 0, from: Date? = nil, until: Date? = nil, limit: Int = 500, through: Int64 = .max) {
        self.after = after
        self.from = from
        self.until = until
        self.limit = limit
        self.through = through
    }

    /// The period's bounds as stored moments, open ends as far as a stored moment can be.
    var storedBounds: (from: Double, until: Double) {
        (from?.storedValue ?? -Double.greatestFiniteMagnitude, until?.storedValue ?? Double.greatestFiniteMagnitude)
    }
}

extension ExportWindow {
    /// The window's rows of a SQLite `table` that has an `id` and a `time`, oldest first.
    func rows(of table: String, in db: Database) throws -> [Row] {
        let (from, until) = storedBounds
        return try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM \(table) WHERE id > ? AND id <= ? AND time >= ? AND time < ? ORDER BY id LIMIT ?"),
            arguments: [after, through, from, until, limit])
    }

    /// The window's rows of a PostgreSQL `table` that has an `id` and a `time`, oldest first.
    func rows(of table: String, columns: String, in database: PostgresDatabase) async throws -> [PostgresRow] {
        let (from, until) = storedBounds
        return try await database.rows("""
            SELECT \(unescaped: columns) FROM \(unescaped: table)
            WHERE id > \(after) AND id <= \(through) AND time >= \(from) AND time < \(until) ORDER BY id LIMIT \(limit)
            """)
    }
}

extension ExportWindow {
    /// Reads the window page after page, handing each to `take`, until a page comes back empty.
    public func pages<Row>(_ page: (ExportWindow) async throws -> [Row], id: (Row) -> Int64,
                           _ take: ([Row]) async throws -> Void) async throws {
        var window = self
        while true {
            let rows = try await page(window)
            guard let last = rows.last else { return }
            try await take(rows)
            window.after = id(last)
        }
    }
}
