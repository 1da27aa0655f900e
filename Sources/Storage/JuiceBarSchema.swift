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

    /// The queue: each order's number within its shop day, its status and when it changed, and
    /// cancels in the ledger. Orders made before were made on the spot: `pickedUp`, numbered in
    /// the order they came on each (UTC) day. SQLite cannot change a CHECK, so the ledger is
    /// copied into a table that allows `cancel`.
    static func registerQueue(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("juiceBar.v3.queue") { db in
            try db.execute(sql: """
                ALTER TABLE juiceOrder ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE juiceOrder ADD COLUMN day TEXT NOT NULL DEFAULT '';
                ALTER TABLE juiceOrder ADD COLUMN status TEXT NOT NULL DEFAULT 'pickedUp'
                    CHECK (status IN ('received', 'making', 'ready', 'pickedUp', 'cancelled'));
                ALTER TABLE juiceOrder ADD COLUMN statusTime REAL NOT NULL DEFAULT 0;
                ALTER TABLE juiceOrder ADD COLUMN readyTime REAL;
                ALTER TABLE juiceOrder ADD COLUMN pickup INTEGER NOT NULL DEFAULT 0;
                UPDATE juiceOrder SET day = date(time, 'unixepoch'), statusTime = time, readyTime = time;
                CREATE INDEX juiceOrder_dayId ON juiceOrder(day, id);
                UPDATE juiceOrder SET number =
                    (SELECT COUNT(*) FROM juiceOrder o WHERE o.day = juiceOrder.day AND o.id <= juiceOrder.id);
                DROP INDEX juiceOrder_dayId;
                CREATE UNIQUE INDEX juiceOrder_dayNumber ON juiceOrder(day, number);
                CREATE INDEX juiceOrder_active ON juiceOrder(id) WHERE status IN ('received', 'making', 'ready');
                CREATE INDEX juiceOrder_pickupReady ON juiceOrder(readyTime) WHERE pickup AND readyTime IS NOT NULL;

                CREATE TABLE stockLedgerWithCancel (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    time DATETIME NOT NULL,
                    fruitId TEXT NOT NULL REFERENCES fruit(id),
                    delta INTEGER NOT NULL,
                    countAfter INTEGER NOT NULL,
                    cause TEXT NOT NULL CHECK (cause IN ('order', 'edit', 'delivery', 'cancel')),
                    juiceId TEXT REFERENCES juice(id),
                    orderId INTEGER REFERENCES juiceOrder(id),
                    actor TEXT NOT NULL
                );
                INSERT INTO stockLedgerWithCancel SELECT id, time, fruitId, delta, countAfter, cause, juiceId, orderId, actor
                    FROM stockLedger;
                DROP TABLE stockLedger;
                ALTER TABLE stockLedgerWithCancel RENAME TO stockLedger;
                CREATE INDEX stockLedger_orderId ON stockLedger(orderId);
                """)
        }
    }

    /// Each fruit's reorder level (0: no warning).
    static func registerReorderLevels(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("juiceBar.v4.reorderLevels") { db in
            try db.execute(sql: """
                ALTER TABLE fruit ADD COLUMN reorderLevel INTEGER NOT NULL DEFAULT 0
                    CHECK (reorderLevel BETWEEN 0 AND 1000000)
                """)
        }
    }
}
