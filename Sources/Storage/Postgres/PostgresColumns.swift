import PostgresNIO

/// A record's columns as its reads name them, each with its PostgreSQL type, in one list: a
/// SELECT is made from the names (`list`), a function that answers the record among its rows
/// declares them (`PostgresRowKinds`), and the record's decoder reads each cell by its name. A
/// new column is a line here and a line in the decoder.
struct PostgresColumns: ExpressibleByDictionaryLiteral, Sendable {
    let columns: [(name: String, type: String)]

    init(dictionaryLiteral columns: (String, String)...) {
        self.columns = columns.map { (name: $0.0, type: $0.1) }
    }

    init(_ columns: [(name: String, type: String)]) {
        self.columns = columns
    }

    /// `id, juice_id, …`: the names, for a SELECT list.
    var list: String { columns.map(\.name).joined(separator: ", ") }

    /// `juice_id, name_ko AS …`: the SELECT list that reads these columns from `table`, where
    /// `renamed` gives a column's name in the table when it differs from the read's (`id`).
    func selected(from table: String, as renamed: [String: String] = [:]) -> String {
        columns.map { column in renamed[column.name].map { "\($0) AS \(column.name)" } ?? column.name }
            .joined(separator: ", ")
    }

    /// Each column as read from the table aliased `alias` under the same name, for `PostgresRowKinds.select`.
    func cells(of alias: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: columns.map { ($0.name, "\(alias).\($0.name)") })
    }
}

/// The rows of a function that answers several kinds of row in one result, a `kind` column
/// telling which: each kind fills the columns it has, named, and every other column of the row
/// is a typed NULL, written here. So the result's shape is declared once (`declaration`) and no
/// one counts positions; PostgreSQL checks each SELECT against the declaration when it plans it.
struct PostgresRowKinds: Sendable {
    let columns: PostgresColumns

    /// The columns of every part, in order; a name that comes again (a column two kinds share)
    /// is the same column, of the same type.
    init(_ parts: PostgresColumns...) {
        var columns: [(name: String, type: String)] = []
        for column in parts.flatMap(\.columns) {
            if let known = columns.first(where: { $0.name == column.name }) {
                precondition(known.type == column.type, "\(column.name) is \(known.type) and \(column.type)")
            } else {
                columns.append(column)
            }
        }
        self.columns = PostgresColumns(columns)
    }

    /// `"kind" smallint, "id" text, …`, for `RETURNS TABLE (…)` (quoted: `time` is a type's name too).
    var declaration: String { columns.columns.map { "\"\($0.name)\" \($0.type)" }.joined(separator: ", ") }

    /// `SELECT` with each column's value from `cells` (column name: SQL expression) or NULL, each
    /// cast to its column's type, in the declared order.
    func select(_ cells: [String: String]) -> String {
        for name in cells.keys {
            precondition(columns.columns.contains { $0.name == name }, "no column \(name) in \(declaration)")
        }
        return "SELECT " + columns.columns.map { column in
            cells[column.name].map { "(\($0))::\(column.type)" } ?? "NULL::\(column.type)"
        }.joined(separator: ", ")
    }
}

extension PostgresRandomAccessRow {
    /// The cell of `column`, decoded; a column the row lacks is an error, not a crash.
    func decode<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard contains(column) else { throw PostgresStoreError.missingColumn(column) }
        return try self[column].decode(T.self)
    }
}
