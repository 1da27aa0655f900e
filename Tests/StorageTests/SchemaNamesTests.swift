import Foundation
internal import GRDB
import JuiceBar
import Logging
import PostgresNIO
@testable import Storage
import Testing

/// Both engines name the shop's tables and columns alike, in PostgreSQL's style; a SQLite shop
/// made before keeps its rows, ids and rules under the new names, and PostgreSQL makes its
/// functions from their one definition each.
@Suite struct SchemaNamesTests {
    /// A SQLite shop as main 8ef28f1 left it: every row, id, counter, index and trigger kept,
    /// under names of lower case words joined by `_`.
    @Test func aSQLiteShopMadeBeforeTakesTheNamesWithItsRowsCountersIndexesAndTriggers() async throws {
        let shop = try await TestShop(sqliteUpTo: "idempotency.v4.requestFingerprints", rows: """
            INSERT INTO juiceOrder (id, juiceId, time, actor, number, day, status, statusTime, readyTime, pickup)
                VALUES (41, 'bananaJuice', 1795000000, 'old', 1, '2026-11-18', 'received', 1795000000, NULL, 1);
            INSERT INTO orderDay (day, lastNumber) VALUES ('2026-11-18', 1);
            INSERT INTO stockLedger (id, time, fruitId, delta, countAfter, cause, juiceId, orderId, actor)
                VALUES (90, 1795000000, 'banana', -2, 8, 'order', 'bananaJuice', 41, 'old');
            INSERT INTO vendingSale (id, productId, price, time, itemId, actor) VALUES (7, 'cola', 1500, 1795000000, 1, 'old');
            DELETE FROM vendingSale;
            INSERT INTO dayReport (number, day, body, hash) VALUES (1, '2026-11-17', '{}', 'x');
            """)
        let order = try #require(try await shop.juiceBar.order(id: 41))
        #expect(order.actor == "old" && order.status == .received && order.pickup)
        #expect(try await shop.juiceBar.queue().map(\.id) == [41])
        #expect(try await shop.juiceBar.ledger(limit: nil).first?.orderID == 41)
        #expect(try await shop.database.days.reports().map(\.day) == ["2026-11-17"])

        let file = try DatabaseQueue(path: shop.location)
        try await file.write { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            let names = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite%' AND name != 'grdb_migrations'
                UNION ALL SELECT p.name FROM sqlite_schema m, pragma_table_info(m.name) p WHERE m.type = 'table'
                UNION ALL SELECT name FROM sqlite_sequence
                """)
            #expect(names.filter { $0.contains(where: \.isUppercase) } == [])
            #expect(try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'vending_sale'") == 7)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE day_report SET body = '[]'") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "DELETE FROM day_report") }
        }
        try file.close()
    }

    /// The columns of each table both engines have, by name; what one engine alone keeps is named
    /// here.
    @Test(.enabled(if: Engine.postgresURL != nil))
    func bothEnginesNameTheSameTablesAndColumnsAlike() async throws {
        let sqlite = try await TestShop(.sqlite)
        let sqliteColumns = try await DatabaseQueue(path: sqlite.location).read { db in
            try Row.fetchAll(db, sql: """
                SELECT m.name, p.name FROM sqlite_schema m, pragma_table_info(m.name) p
                WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite%' AND m.name != 'grdb_migrations'
                """).map { "\($0[0] as String).\($0[1] as String)" }
        }
        let postgres = try await TestShop(.postgres)
        let postgresColumns = try await postgres.rows("""
            SELECT table_name || '.' || column_name FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name != 'schema_migration'
            """).map { try $0.decode(String.self) }
        // SQLite's rowid names a failed sign-in; PostgreSQL finds a kept answer by its key, and
        // its numbers by an index of orders' days.
        #expect(Set(sqliteColumns).subtracting(postgresColumns).sorted()
                == ["idempotent_request.id", "order_day.day", "order_day.last_number"])
        #expect(Set(postgresColumns).subtracting(sqliteColumns).sorted() == ["failed_sign_in.id"])
    }

    /// A function whose definition the database has not recorded (another build's, say, of
    /// other arguments) is dropped and made from the one here when the shop opens.
    @Test(.enabled(if: Engine.postgresURL != nil))
    func aPostgresFunctionOfAnotherDefinitionIsMadeAgainFromItsOwn() async throws {
        let shop = try await TestShop(.postgres)
        for statement in [
            "DELETE FROM schema_migration WHERE name LIKE 'function juice_bar_book %'",
            "DROP FUNCTION juice_bar_book",
            "CREATE FUNCTION juice_bar_book(lock_key bigint) RETURNS TABLE (kind smallint) LANGUAGE sql AS 'SELECT 9::smallint'",
        ] { try await shop.executeBehindTheShop(statement) }
        let reopened = try await shop.reopen()
        #expect(try await reopened.juiceBar.order("bananaJuice", actor: "t").order.number == 1)
        let result = try await shop.rows("SELECT pg_get_function_result('juice_bar_book'::regproc)").first?.decode(String.self)
        #expect(result?.replacingOccurrences(of: "\"", with: "")
                == "TABLE(\(PostgresFunction.juiceBarBook.rows.declaration))".replacingOccurrences(of: "\"", with: ""))
        let recorded = try await shop.rows("SELECT name FROM schema_migration WHERE name LIKE 'function %' ORDER BY name")
            .map { try $0.decode(String.self) }
        #expect(recorded == PostgresFunction.all.map(\.migration.name).sorted())
    }
}
