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
    /// about as much as SQLite's own work for these small writes; orders went 5 % faster without
    /// it (`scripts/bench-ab`, ten runs). For writes only: no row is read, and no transaction
    /// observer hears of them (a shop's file has none).
    func run<each Value: SQLiteBindable>(_ sql: String, _ values: repeat each Value) throws {
        let statement = try cachedStatement(sql: sql).sqliteStatement
        var index: Int32 = 0
        var code = SQLITE_OK
        for value in repeat each values {
            index += 1
            if code == SQLITE_OK { code = value.bind(to: statement, at: index) }
        }
        precondition(index == sqlite3_bind_parameter_count(statement), "a value for every parameter of \(sql)")
        if code == SQLITE_OK { code = sqlite3_step(statement) }
        let message = code == SQLITE_DONE ? nil : String(cString: sqlite3_errmsg(sqliteConnection))
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
        }
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
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_text(statement, index, self, -1, transient)
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
