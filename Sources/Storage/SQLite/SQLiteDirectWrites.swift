internal import GRDB
internal import GRDBSQLite

/// A value a write run by `Database.run` binds through SQLite's C API.
protocol SQLiteBindable {
    /// SQLite's result code of binding the value as parameter `index` (from 1) of `statement`.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

extension Database {
    /// Runs the cached write `sql` once with `values` bound straight through SQLite's C API. A
    /// batch's inserts and updates run here: GRDB's general binding (`StatementArguments`, each
    /// value boxed, and bound in a closure nested in the one before) cost the committing thread
    /// about as much as SQLite's own work for these small writes, and orders go faster without
    /// it (`scripts/bench-ab`). For writes only: no row is read, and no transaction
    /// observer hears of them (a shop's file has none).
    func run<each Value: SQLiteBindable>(_ sql: String, _ values: repeat each Value) throws {
        var parameters = try Parameters(of: cachedStatement(sql: sql).sqliteStatement)
        parameters.bind(repeat each values)
        try parameters.step(sql, in: self)
    }

    /// Runs the cached read `sql` with `values` bound, handing each row to `row` (which reads its
    /// columns from the statement with `sqlite3_column_…`). The batch's small reads run here, for
    /// the same reason as its writes: GRDB's rows and cursors cost more than SQLite's work.
    func read<each Value: SQLiteBindable>(_ sql: String, _ values: repeat each Value,
                                          row: (OpaquePointer) throws -> Void) throws {
        var parameters = try Parameters(of: cachedStatement(sql: sql).sqliteStatement)
        parameters.bind(repeat each values)
        try parameters.step(sql, in: self, row: row)
    }

    /// The first column of the cached read `sql`'s first row as an integer; nil when there is no
    /// row or it holds NULL.
    func integer<each Value: SQLiteBindable>(_ sql: String, _ values: repeat each Value) throws -> Int64? {
        var value: Int64?
        try read(sql, repeat each values) { statement in
            if value == nil, sqlite3_column_type(statement, 0) != SQLITE_NULL { value = sqlite3_column_int64(statement, 0) }
        }
        return value
    }

    /// The id of `table`'s newest row; 0 when it has none. A write that gives the ids of the rows
    /// it adds starts after it: it runs in the writer's transaction, which holds the write lock.
    func lastID(of table: String) throws -> Int64 {
        try integer("SELECT MAX(id) FROM \(table)") ?? 0
    }

    /// Inserts `rows`, each bound by `bind`, with as few statements as the sizes of
    /// `MultiRowInsert` allow: a batch's rows are one statement's work for SQLite, not one
    /// statement (with its cursors opened and its undo journal begun) each.
    func insert<Row>(_ rows: [Row], _ insert: MultiRowInsert, bind: (Row, inout Parameters) -> Void) throws {
        var rest = rows[...]
        while !rest.isEmpty {
            let size = MultiRowInsert.sizes.first { $0 <= rest.count }!
            let sql = insert.sql(rows: size)
            var parameters = try Parameters(of: cachedStatement(sql: sql).sqliteStatement)
            for row in rest.prefix(size) { bind(row, &parameters) }
            try parameters.step(sql, in: self)
            rest = rest.dropFirst(size)
        }
    }
}

/// The parameters of a cached statement (a write or a small read), bound in order through
/// SQLite's C API.
struct Parameters {
    private let statement: OpaquePointer
    private var index: Int32 = 0
    private var code = SQLITE_OK

    fileprivate init(of statement: OpaquePointer) {
        self.statement = statement
    }

    /// Binds `values` to the next parameters.
    mutating func bind<each Value: SQLiteBindable>(_ values: repeat each Value) {
        for value in repeat each values {
            index += 1
            if code == SQLITE_OK { code = value.bind(to: statement, at: index) }
        }
    }

    /// Runs the statement once every parameter is bound, handing each row it gives to `row`, and
    /// readies it for the next run.
    fileprivate func step(_ sql: String, in db: Database, row: (OpaquePointer) throws -> Void = { _ in }) throws {
        precondition(index == sqlite3_bind_parameter_count(statement), "a value for every parameter of \(sql)")
        defer { sqlite3_reset(statement) }
        var code = code
        if code == SQLITE_OK { code = sqlite3_step(statement) }
        while code == SQLITE_ROW {
            try row(statement)
            code = sqlite3_step(statement)
        }
        let message = code == SQLITE_DONE ? nil : String(cString: sqlite3_errmsg(db.sqliteConnection))
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
        }
    }
}

/// An `INSERT` of many rows at once, its statement text made once for each size it comes in.
struct MultiRowInsert: Sendable {
    /// The sizes a run of rows is cut into, largest first: a few cached statements cover any batch.
    static let sizes = [32, 16, 8, 4, 2, 1]
    private let statements: [String]

    /// `INSERT INTO table (columns) VALUES (?, …), …` for each of `sizes`.
    init(into table: String, columns: [String]) {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let head = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        statements = Self.sizes.map { head + Array(repeating: row, count: $0).joined(separator: ", ") }
    }

    func sql(rows: Int) -> String {
        statements[Self.sizes.firstIndex(of: rows)!]
    }
}

/// SQLite copies the text or bytes before the bind returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension Int: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, Int64(self)) }
}

extension Int64: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, self) }
}

extension Double: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_double(statement, index, self) }
}

extension Bool: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int(statement, index, self ? 1 : 0) }
}

extension String: SQLiteBindable {
    /// Bound with its length: a text with a NUL in it is kept whole (as a C string it would end
    /// there), and no C string is made of it first.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        guard !isEmpty else { return sqlite3_bind_text(statement, index, "", 0, transient) }
        var text = self
        return text.withUTF8 { sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), transient) }
    }
}

extension [UInt8]: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        guard !isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
        return withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
    }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .some(let value): value.bind(to: statement, at: index)
        case .none: sqlite3_bind_null(statement, index)
        }
    }
}
