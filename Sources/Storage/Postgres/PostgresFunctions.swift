import Crypto
import Foundation
import PostgresNIO

/// A function of the shop's schema, written once, here. `PostgresSchema.migrate` makes it from
/// this definition after the migrations, in their transaction, whenever the database has not
/// recorded this very definition: its migration is named by the definition's digest, and drops
/// the function before it creates it, so a new definition may change the arguments or the rows
/// (which `CREATE OR REPLACE` cannot).
struct PostgresFunction: Sendable {
    let name: String
    let arguments: String
    let rows: PostgresRowKinds
    /// The statements between `BEGIN` and `END`. A column is always named with its table's alias:
    /// the result's columns are variables of the function too.
    let body: String

    /// The shop's functions, each made by `PostgresSchema.migrate` from its definition here.
    static let all = [juiceBarBook, vendingBook]

    var definition: String {
        """
        CREATE FUNCTION \(name)(\(arguments))
        RETURNS TABLE (\(rows.declaration))
        LANGUAGE plpgsql AS $$
        #variable_conflict use_column
        BEGIN
        \(body)
        END
        $$
        """
    }

    /// The migration that makes this definition, named by its digest.
    var migration: PostgresSchema.Migration {
        let digest = SHA256.hash(data: Data(definition.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        return ("function \(name) \(digest)", { [name, definition] connection in
            try await connection.run(PostgresQuery(unsafeSQL: "DROP FUNCTION IF EXISTS \(name)"))
            try await connection.run(PostgresQuery(unsafeSQL: definition))
        })
    }
}

// The first statement of each part's writes (see `PostgresDatabase.write`) is its book: it takes
// the part's lock, asks for the change notice, and then reads what the batch is decided on, all in
// one round trip. A function, because a plain statement reads the moment it started, before it
// waited for the lock; each statement of a (volatile) function reads afresh.
extension PostgresFunction {
    /// The fruit stock's book (`PostgresJuiceBarStore.fetchBook`): first the shop's time zone,
    /// read once the lock is held, so it is the zone as last committed (a change takes the row and
    /// then this lock before it commits); then a row per fruit; a row per recipe line, each juice's
    /// lines together and in order; a row per option group; the last number given on each of `days`; and each of
    /// `order_ids`' order, in the columns every read of orders selects.
    static let juiceBarBook: PostgresFunction = {
        typealias Kind = PostgresJuiceBarStore.BookRow
        let rows = PostgresRowKinds(
            ["kind": "smallint", "time_zone": "text", "fruit_id": "text", "name_ko": "text", "name_en": "text",
             "emoji": "text", "count": "integer", "reorder_level": "integer", "amount": "integer",
             "last_number": "integer", "group_definition": "text"],
            PostgresJuiceBarStore.juiceColumns,
            PostgresJuiceBarStore.orderColumns)
        return PostgresFunction(
            name: "juice_bar_book", arguments: "lock_key bigint, channel text, instance text, days text[], order_ids bigint[]",
            rows: rows, body: """
                PERFORM pg_advisory_xact_lock(lock_key), pg_notify(channel, instance);
                RETURN QUERY \(rows.select(["kind": Kind.timeZone.sql, "time_zone": "s.time_zone"]))
                    FROM shop_setting s;
                RETURN QUERY \(rows.select([
                    "kind": Kind.fruit.sql, "fruit_id": "f.id", "name_ko": "f.name_ko", "name_en": "f.name_en",
                    "emoji": "f.emoji", "count": "f.count", "reorder_level": "f.reorder_level"]))
                    FROM fruit f ORDER BY f.position, f.id;
                RETURN QUERY \(rows.select(PostgresJuiceBarStore.juiceColumns.cells(of: "j").merging([
                    "kind": Kind.recipeLine.sql, "juice_id": "j.id", "fruit_id": "r.fruit_id", "amount": "r.amount"]) { $1 }))
                    FROM juice j JOIN recipe_ingredient r ON r.juice_id = j.id ORDER BY j.position, j.id, r.position;
                RETURN QUERY \(rows.select(["kind": Kind.optionGroup.sql, "group_definition": "g.definition"]))
                    FROM option_group g ORDER BY g.position;
                RETURN QUERY \(rows.select([
                    "kind": Kind.lastNumber.sql, "day": "d.day",
                    "last_number": "SELECT max(o.number) FROM juice_order o WHERE o.day = d.day"]))
                    FROM unnest(days) AS d(day);
                RETURN QUERY \(rows.select(PostgresJuiceBarStore.orderColumns.cells(of: "o").merging(["kind": Kind.order.sql]) { $1 }))
                    FROM juice_order o WHERE o.id = ANY(order_ids);
                """)
    }()

    /// The vending machine's book (`PostgresVendingStore.fetchBook`): a row per product with its
    /// unsold count and the money; then, for each wanted product, its oldest items still fresh at
    /// `fresh_after`, as many as wanted, oldest first, in the columns every read of items selects.
    static let vendingBook: PostgresFunction = {
        typealias Kind = PostgresVendingStore.BookRow
        let rows = PostgresRowKinds(
            ["kind": "smallint", "product_id": "text", "unsold": "integer", "balance": "integer", "inserted": "bigint",
             "spent": "bigint", "returned": "bigint"],
            PostgresVendingStore.itemColumns)
        return PostgresFunction(
            name: "vending_book",
            arguments: "lock_key bigint, channel text, instance text, wanted_products text[], wanted_counts bigint[], "
                + "fresh_after double precision",
            rows: rows, body: """
                PERFORM pg_advisory_xact_lock(lock_key), pg_notify(channel, instance);
                RETURN QUERY \(rows.select([
                    "kind": Kind.product.sql, "product_id": "p.id", "unsold": "p.unsold", "balance": "m.balance",
                    "inserted": "m.inserted", "spent": "m.spent", "returned": "m.returned"]))
                    FROM vending_product p CROSS JOIN vending_money m WHERE m.id = 1;
                RETURN QUERY \(rows.select(PostgresVendingStore.itemColumns.cells(of: "i").merging(["kind": Kind.item.sql]) { $1 }))
                    FROM unnest(wanted_products, wanted_counts) AS w(product, count)
                    CROSS JOIN LATERAL (
                        SELECT v.* FROM vending_item v
                        WHERE v.product_id = w.product AND v.sale_id IS NULL AND v.expires > fresh_after
                        ORDER BY v.manufactured, v.id LIMIT w.count
                    ) i
                    ORDER BY i.manufactured, i.id;
                """)
    }()
}

fileprivate extension RawRepresentable where RawValue == Int16 {
    /// The kind as a book's SQL writes it.
    var sql: String { "\(rawValue)" }
}
