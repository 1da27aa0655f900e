import Foundation
internal import GRDB
internal import GRDBSQLite
@testable import Storage
import Testing

/// `Database.run` binds through SQLite's C API what GRDB's arguments would: each kind of value
/// stored as its own type, and a refused write an error naming its statement, the statement
/// ready for the next write. `Database.insert` stores any number of rows in order, and
/// `Database.read` hands over every row.
@Suite struct SQLiteDirectWritesTests {
    let queue: DatabaseQueue

    init() throws {
        queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE value (id INTEGER PRIMARY KEY, number, real, flag, text, bytes, missing)")
        }
    }

    @Test func everyKindOfValueIsStoredAsItsOwnType() throws {
        let text = "키위 🥝 'quoted'"
        let row = try queue.write { db in
            try db.run("INSERT INTO value (id, number, real, flag, text, bytes, missing) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       Int64(7), Int.max, 0.25, true, text, [UInt8]([0, 1, 255]), String?.none)
            try db.run("INSERT INTO value (id, bytes, flag) VALUES (?, ?, ?)", 8, [UInt8](), false)
            return try Row.fetchAll(db, sql: """
                SELECT typeof(number), number, typeof(real), real, flag, typeof(text), text, typeof(bytes), bytes,
                       typeof(missing) FROM value ORDER BY id
                """)
        }
        #expect(row[0]["typeof(number)"] == "integer" && row[0]["number"] == Int.max)
        #expect(row[0]["typeof(real)"] == "real" && row[0]["real"] == 0.25)
        #expect(row[0]["flag"] == 1 && row[1]["flag"] == 0)
        #expect(row[0]["typeof(text)"] == "text" && row[0]["text"] == text)
        #expect(row[0]["typeof(bytes)"] == "blob" && row[0]["bytes"] == Data([0, 1, 255]))
        #expect(row[1]["typeof(bytes)"] == "blob" && row[1]["bytes"] == Data())
        #expect(row[0]["typeof(missing)"] == "null")
    }

    /// A text is bound with its length: one with a NUL is kept whole, a short one (Swift keeps
    /// it inline) and an empty one are text too, not NULL.
    @Test(arguments: ["kiwi\u{0}mango", "kiwi", "", String(repeating: "딸기", count: 40)])
    func aTextIsStoredWhole(_ text: String) throws {
        let stored = try queue.write { db in
            try db.run("INSERT INTO value (id, text) VALUES (?, ?)", 1, text)
            // As bytes: GRDB reads a text as a C string, which would end at the NUL.
            return try Row.fetchOne(db, sql: "SELECT typeof(text), CAST(text AS BLOB) AS bytes FROM value")!
        }
        #expect(stored["typeof(text)"] == "text")
        #expect(stored["bytes"] == Data(text.utf8))
    }

    @Test func aRefusedWriteThrowsItsErrorAndTheStatementRunsAgain() throws {
        let insert = "INSERT INTO value (id, text) VALUES (?, ?)"
        try queue.write { db in
            try db.run(insert, 1, "first")
            let error = #expect(throws: DatabaseError.self) { try db.run(insert, 1, "again") }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT && error?.sql == insert)
            try db.run(insert, 2, "second")
            #expect(try String.fetchAll(db, sql: "SELECT text FROM value ORDER BY id") == ["first", "second"])
        }
    }

    @Test(arguments: [0, 1, 5, 32, 45, 100])
    func manyRowsAreInsertedInOrderWhateverTheirCount(_ count: Int) throws {
        let insert = MultiRowInsert(into: "value", columns: ["id", "number", "text"])
        let rows = try queue.write { db in
            try db.insert((0..<count).map { $0 + 1 }, insert) { id, row in row.bind(id, id * 10, "row \(id)") }
            var rows: [String] = []
            try db.read("SELECT id, number, text FROM value WHERE id > ? ORDER BY id", 0) { statement in
                rows.append("\(sqlite3_column_int64(statement, 0)) \(sqlite3_column_int64(statement, 1)) "
                            + String(cString: sqlite3_column_text(statement, 2)))
            }
            return rows
        }
        #expect(rows == (0..<count).map { "\($0 + 1) \(($0 + 1) * 10) row \($0 + 1)" })
    }

    @Test func aRefusedRowUndoesItsWholeInsert() throws {
        let insert = MultiRowInsert(into: "value", columns: ["id", "text"])
        try queue.write { db in
            try db.run("INSERT INTO value (id, text) VALUES (?, ?)", 3, "there")
            #expect(throws: DatabaseError.self) {
                try db.insert([1, 2, 3, 4], insert) { id, row in row.bind(id, "new") }
            }
            #expect(try db.integer("SELECT COUNT(*) FROM value") == 1)
            #expect(try db.lastID(of: "value") == 3)
            try db.insert([4, 5], insert) { id, row in row.bind(id, "new") }
            #expect(try db.lastID(of: "value") == 5)
        }
    }

    @Test func anEmptyTableHasNoLastIDAndAnEmptyReadNoInteger() throws {
        let (lastID, number) = try queue.read { db in
            (try db.lastID(of: "value"), try db.integer("SELECT number FROM value WHERE id = ?", 1))
        }
        #expect(lastID == 0 && number == nil)
    }
}
