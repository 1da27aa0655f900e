import Foundation
internal import GRDB
import JuiceBar

/// The juice bar's tables and the seed menu of a new shop.
enum JuiceBarSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("juiceBar.v1") { db in
            try db.execute(sql: """
                CREATE TABLE fruit (
                    id TEXT PRIMARY KEY,
                    nameKo TEXT NOT NULL,
                    nameEn TEXT NOT NULL,
                    emoji TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    count INTEGER NOT NULL CHECK (count BETWEEN 0 AND 1000000)
                );
                CREATE TABLE juice (
                    id TEXT PRIMARY KEY,
                    nameKo TEXT NOT NULL,
                    nameEn TEXT NOT NULL,
                    position INTEGER NOT NULL
                );
                CREATE TABLE recipeIngredient (
                    juiceId TEXT NOT NULL REFERENCES juice(id),
                    fruitId TEXT NOT NULL REFERENCES fruit(id),
                    amount INTEGER NOT NULL CHECK (amount > 0),
                    position INTEGER NOT NULL,
                    PRIMARY KEY (juiceId, fruitId)
                );
                CREATE TABLE juiceOrder (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    juiceId TEXT NOT NULL REFERENCES juice(id),
                    time DATETIME NOT NULL,
                    actor TEXT NOT NULL
                );
                CREATE TABLE stockLedger (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    time DATETIME NOT NULL,
                    fruitId TEXT NOT NULL REFERENCES fruit(id),
                    delta INTEGER NOT NULL,
                    countAfter INTEGER NOT NULL,
                    cause TEXT NOT NULL CHECK (cause IN ('order', 'edit', 'delivery')),
                    juiceId TEXT REFERENCES juice(id),
                    orderId INTEGER REFERENCES juiceOrder(id),
                    actor TEXT NOT NULL
                );
                CREATE INDEX stockLedger_orderId ON stockLedger(orderId);
                """)
            _ = try SQLiteJuiceBarStore.store(DecidedStockBatch.seed(at: Date()).plans, in: db)
        }
    }

    /// Orders made by members, linked to their account (after accounts exist).
    static func registerMemberOrders(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("juiceBar.v2.memberOrders") { db in
            try db.execute(sql: """
                ALTER TABLE juiceOrder ADD COLUMN accountId INTEGER REFERENCES account(id);
                CREATE INDEX juiceOrder_accountId ON juiceOrder(accountId);
                """)
        }
    }
}
