import Foundation
internal import GRDB
import JuiceBar
import VendingMachine

/// The shop's tables in SQLite and the seed data of a new shop: every migration, in the order
/// they shipped. The same tables as in PostgreSQL (`PostgresSchema`), under the same names since
/// `namesAsInPostgres` (the migrations before it wrote camel case); moments are seconds since
/// 1970 (REAL) as there. A migration writes its tables under the names they had when it shipped,
/// never through a store's code, which writes the newest names.
enum SQLiteSchema {
    /// Every migration in the order they shipped; one never changes once shipped, new ones are
    /// added at the end (as in `PostgresSchema.migrations`).
    static let migrations: [(name: String, apply: @Sendable (Database) throws -> Void)] = [
        ("juiceBar.v1", juiceBar),
        ("accounts.v1", accounts),
        ("accounts.v2", signInLimitsAndEventDismissals),
        ("vending.v1", vending),
        ("vending.v2.plainCategories", plainCategories),
        ("content.v1", content),
        ("juiceBar.v2.memberOrders", memberOrders),
        ("juiceBar.v3.queue", queue),
        ("juiceBar.v4.reorderLevels", reorderLevels),
        ("idempotency.v1", idempotency),
        ("days.v1", dayReports),
        ("shopSetting.v1", shopSettings),
        ("accounts.v3.identities", identities),
        ("juiceBar.v5.plainRowIDs", plainRowIDs),
        ("juiceBar.v6.checksWithoutLists", checksWithoutLists),
        ("juiceBar.v7.orderDays", orderDays),
        ("idempotency.v2.sweptByScan", keysSweptByScan),
        ("idempotency.v3.keptInArrivalOrder", keptInArrivalOrder),
        ("idempotency.v4.requestFingerprints", requestFingerprints),
        ("shop.v1.namesAsInPostgres", namesAsInPostgres),
        ("juiceBar.v8.prices", prices),
        ("juiceBar.v9.sales", sales),
        ("shopSetting.v2.shopInfo", SQLiteShopSettingStore.addShopInfo),
    ]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations { migrator.registerMigration(migration.name, migrate: migration.apply) }
        return migrator
    }

    /// GRDB checks which migrations are applied before it takes the write lock, so two processes
    /// opening a new file together can both try the same migration. Each migration is one
    /// transaction, so the loser changed nothing: it looks again and goes on from there.
    static func migrate(_ pool: DatabasePool) throws {
        let migrator = Self.migrator
        var attempts = 0
        while true {
            do {
                return try migrator.migrate(pool)
            } catch {
                attempts += 1
                if try pool.read(migrator.hasCompletedMigrations) { return }
                if attempts >= migrator.migrations.count + 1 { throw error }
            }
        }
    }

    /// The juice bar: fruits, juices and recipes, orders and the stock ledger, and the seed menu.
    private static func juiceBar(_ db: Database) throws {
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
        try seedJuiceBar(db)
    }

    /// The seed menu, each fruit delivered with its first count, as `juiceBar` names the tables.
    private static func seedJuiceBar(_ db: Database) throws {
        for plan in DecidedStockBatch.seed(at: Date()).plans {
            if let fruit = plan.newFruit {
                try db.execute(
                    sql: "INSERT INTO fruit (id, nameKo, nameEn, emoji, position, count) VALUES (?, ?, ?, ?, (SELECT COUNT(*) FROM fruit), ?)",
                    arguments: [fruit.id.rawValue, fruit.name.ko, fruit.name.en, fruit.emoji, plan.counts[fruit.id] ?? 0])
            }
            if let juice = plan.newJuice {
                try db.execute(sql: "INSERT INTO juice (id, nameKo, nameEn, position) VALUES (?, ?, ?, (SELECT COUNT(*) FROM juice))",
                               arguments: [juice.id.rawValue, juice.name.ko, juice.name.en])
                for (position, ingredient) in juice.recipe.enumerated() {
                    try db.execute(sql: "INSERT INTO recipeIngredient (juiceId, fruitId, amount, position) VALUES (?, ?, ?, ?)",
                                   arguments: [juice.id.rawValue, ingredient.fruit.rawValue, ingredient.amount, position])
                }
            }
            for line in plan.ledger {
                try db.execute(
                    sql: "INSERT INTO stockLedger (time, fruitId, delta, countAfter, cause, actor) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [line.time.storedValue, line.fruit.rawValue, line.delta, line.countAfter, line.cause.rawValue, line.actor])
            }
        }
    }

    /// Members and staff, and their sessions.
    private static func accounts(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE account (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                username TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                passwordHash TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('member', 'staff')),
                createdAt DATETIME NOT NULL
            );
            CREATE TABLE session (
                token TEXT PRIMARY KEY,
                accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                expires DATETIME NOT NULL
            );
            """)
    }

    /// Failed sign-ins (for lock-out), the event a session was shown, and "hide for today".
    private static func signInLimitsAndEventDismissals(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE failedSignIn (
                username TEXT NOT NULL,
                time DATETIME NOT NULL
            );
            CREATE INDEX failedSignIn_username ON failedSignIn(username, time);
            ALTER TABLE session ADD COLUMN shownEventId INTEGER;
            CREATE TABLE eventDismissal (
                eventId INTEGER NOT NULL,
                accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                until DATETIME NOT NULL,
                PRIMARY KEY (eventId, accountId)
            );
            """)
    }

    /// The vending machine: products, items, sales and money, stocked with the catalog.
    private static func vending(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE vendingProduct (
                id TEXT PRIMARY KEY,
                position INTEGER NOT NULL,
                definition TEXT NOT NULL,
                unsold INTEGER NOT NULL DEFAULT 0 CHECK (unsold >= 0)
            );
            CREATE TABLE vendingSale (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                productId TEXT NOT NULL REFERENCES vendingProduct(id),
                price INTEGER NOT NULL CHECK (price >= 0),
                time DATETIME NOT NULL,
                itemId INTEGER NOT NULL UNIQUE,
                actor TEXT NOT NULL
            );
            CREATE TABLE vendingItem (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                productId TEXT NOT NULL REFERENCES vendingProduct(id),
                manufactured DATETIME NOT NULL,
                expires DATETIME NOT NULL,
                saleId INTEGER REFERENCES vendingSale(id)
            );
            CREATE INDEX vendingItem_unsold ON vendingItem(productId, manufactured, id) WHERE saleId IS NULL;
            CREATE INDEX vendingItem_unsoldExpiry ON vendingItem(expires) WHERE saleId IS NULL;
            CREATE TABLE vendingMoney (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                balance INTEGER NOT NULL CHECK (balance BETWEEN 0 AND 50000),
                inserted INTEGER NOT NULL,
                spent INTEGER NOT NULL,
                returned INTEGER NOT NULL,
                version INTEGER NOT NULL,
                CHECK (inserted = spent + returned + balance)
            );
            CREATE TABLE vendingMoneyLedger (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                time DATETIME NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('insert', 'spend', 'return')),
                amount INTEGER NOT NULL,
                balanceAfter INTEGER NOT NULL,
                actor TEXT NOT NULL
            );
            INSERT INTO vendingMoney (id, balance, inserted, spent, returned, version) VALUES (1, 0, 0, 0, 0, 0);
            """)
        let today = Date()
        for (position, product) in Catalog.products.enumerated() {
            try db.execute(sql: "INSERT INTO vendingProduct (id, position, definition, unsold) VALUES (?, ?, ?, ?)",
                           arguments: [product.id, position, try product.storedDefinition(), Catalog.startingCount])
            let expires = product.expiry(ofItemMadeOn: today)
            for _ in 0..<Catalog.startingCount {
                try db.execute(sql: "INSERT INTO vendingItem (productId, manufactured, expires) VALUES (?, ?, ?)",
                               arguments: [product.id, today.storedValue, expires.storedValue])
            }
        }
    }

    /// Definitions stored before a category was written as plain fields beside its kind.
    private static func plainCategories(_ db: Database) throws {
        for product in Catalog.products {
            try db.execute(sql: "UPDATE vendingProduct SET definition = ? WHERE id = ?",
                           arguments: [try product.storedDefinition(), product.id])
        }
    }

    /// What's New, events and their images.
    private static func content(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE image (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                contentType TEXT NOT NULL,
                bytes BLOB NOT NULL
            );
            CREATE TABLE news (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                imageId INTEGER REFERENCES image(id),
                registeredAt DATETIME NOT NULL
            );
            CREATE INDEX news_registeredAt ON news(registeredAt);
            CREATE TABLE event (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                imageId INTEGER REFERENCES image(id),
                start DATETIME NOT NULL,
                end DATETIME NOT NULL
            );
            """)
    }

    /// Orders made by members, linked to their account (after accounts exist).
    private static func memberOrders(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE juiceOrder ADD COLUMN accountId INTEGER REFERENCES account(id);
            CREATE INDEX juiceOrder_accountId ON juiceOrder(accountId);
            """)
    }

    /// The queue: each order's number within its shop day, its status and when it changed, and
    /// cancels in the ledger. Orders made before were made on the spot: `pickedUp`, numbered in
    /// the order they came on each (UTC) day. SQLite cannot change a CHECK, so the ledger is
    /// copied into a table that allows `cancel`.
    private static func queue(_ db: Database) throws {
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
            CREATE INDEX juiceOrder_active ON juiceOrder(id) WHERE status IN \(OrderStatus.activeSQL);
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

    /// Each fruit's reorder level (0: no warning).
    private static func reorderLevels(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE fruit ADD COLUMN reorderLevel INTEGER NOT NULL DEFAULT 0
                CHECK (reorderLevel BETWEEN 0 AND 1000000)
            """)
    }

    /// Answers kept for requests that carry an `Idempotency-Key`.
    private static func idempotency(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE idempotentRequest (
                scope TEXT NOT NULL,
                key TEXT NOT NULL,
                request TEXT NOT NULL,
                created REAL NOT NULL,
                status INTEGER,
                contentType TEXT,
                body BLOB,
                PRIMARY KEY (scope, key)
            ) WITHOUT ROWID;
            CREATE INDEX idempotentRequest_created ON idempotentRequest(created);
            """)
    }

    /// The closed days' reports, never changed once stored, and the index the counts at close read.
    private static func dayReports(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE dayReport (
                number INTEGER PRIMARY KEY,
                day TEXT NOT NULL UNIQUE,
                body TEXT NOT NULL,
                hash TEXT NOT NULL
            );
            CREATE TRIGGER dayReport_neverUpdated BEFORE UPDATE ON dayReport
                BEGIN SELECT RAISE(ABORT, 'a day report never changes'); END;
            CREATE TRIGGER dayReport_neverDeleted BEFORE DELETE ON dayReport
                BEGIN SELECT RAISE(ABORT, 'a day report never changes'); END;
            CREATE TRIGGER dayReport_neverReplaced BEFORE INSERT ON dayReport
                WHEN EXISTS (SELECT 1 FROM dayReport WHERE number = NEW.number OR day = NEW.day)
                BEGIN SELECT RAISE(IGNORE); END;
            CREATE INDEX stockLedger_fruitId ON stockLedger(fruitId, id);
            """)
    }

    /// The shop's own settings, one row: the time zone its days are counted in. A shop made before
    /// takes the rule a new one does (`TZ` if it names a zone, else Asia/Seoul) when migrated.
    private static func shopSettings(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE shopSetting (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                timeZone TEXT NOT NULL
            )
            """)
        try db.execute(sql: "INSERT INTO shopSetting (id, timeZone) VALUES (1, ?)", arguments: [ShopTimeZone.initialName()])
    }

    /// Members' identities at outside providers (Kakao), the sign-ins on their way there, and
    /// accounts without a password (made by such a sign-in). SQLite cannot drop a NOT NULL, so
    /// `account` is copied into a table without it (the migration runs with foreign keys off and
    /// checks them after, so the tables that refer to `account` keep their rows), keeping its
    /// AUTOINCREMENT counter so no id is ever given twice.
    private static func identities(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE accountWithOptionalPassword (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                username TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                passwordHash TEXT,
                role TEXT NOT NULL CHECK (role IN ('member', 'staff')),
                createdAt DATETIME NOT NULL
            );
            INSERT INTO accountWithOptionalPassword (id, username, name, passwordHash, role, createdAt)
                SELECT id, username, name, passwordHash, role, createdAt FROM account;
            DELETE FROM sqlite_sequence WHERE name = 'accountWithOptionalPassword';
            UPDATE sqlite_sequence SET name = 'accountWithOptionalPassword' WHERE name = 'account';
            DROP TABLE account;
            ALTER TABLE accountWithOptionalPassword RENAME TO account;

            CREATE TABLE accountIdentity (
                issuer TEXT NOT NULL,
                subject TEXT NOT NULL,
                accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                linkedAt DATETIME NOT NULL,
                PRIMARY KEY (issuer, subject),
                UNIQUE (accountId, issuer)
            );
            CREATE TABLE pendingSignIn (
                state TEXT PRIMARY KEY,
                browser TEXT NOT NULL,
                nonce TEXT NOT NULL,
                codeVerifier TEXT NOT NULL,
                next TEXT NOT NULL,
                language TEXT NOT NULL,
                linkingAccountId INTEGER REFERENCES account(id) ON DELETE CASCADE,
                expires DATETIME NOT NULL
            );
            CREATE INDEX pendingSignIn_expires ON pendingSignIn(expires);
            """)
    }

    /// Orders and ledger lines take the id after the largest, as any rowid table does, instead of
    /// AUTOINCREMENT's counter: neither table ever loses a row (a cancel is a status and a ledger
    /// line of its own), so no id is given twice all the same, and an order no longer rewrites the
    /// counters' row in `sqlite_sequence` once per insert (three times for a two-fruit juice).
    /// Copied into tables without it, ids and all, as `queue` did (foreign keys off, checked after).
    private static func plainRowIDs(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE juiceOrderWithPlainIDs (
                id INTEGER PRIMARY KEY,
                juiceId TEXT NOT NULL REFERENCES juice(id),
                time DATETIME NOT NULL,
                actor TEXT NOT NULL,
                accountId INTEGER REFERENCES account(id),
                number INTEGER NOT NULL DEFAULT 0,
                day TEXT NOT NULL DEFAULT '',
                status TEXT NOT NULL DEFAULT 'pickedUp'
                    CHECK (status IN ('received', 'making', 'ready', 'pickedUp', 'cancelled')),
                statusTime REAL NOT NULL DEFAULT 0,
                readyTime REAL,
                pickup INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO juiceOrderWithPlainIDs
                (id, juiceId, time, actor, accountId, number, day, status, statusTime, readyTime, pickup)
                SELECT id, juiceId, time, actor, accountId, number, day, status, statusTime, readyTime, pickup
                FROM juiceOrder;
            DROP TABLE juiceOrder;
            ALTER TABLE juiceOrderWithPlainIDs RENAME TO juiceOrder;
            CREATE INDEX juiceOrder_accountId ON juiceOrder(accountId);
            CREATE UNIQUE INDEX juiceOrder_dayNumber ON juiceOrder(day, number);
            CREATE INDEX juiceOrder_active ON juiceOrder(id) WHERE status IN \(OrderStatus.activeSQL);
            CREATE INDEX juiceOrder_pickupReady ON juiceOrder(readyTime) WHERE pickup AND readyTime IS NOT NULL;

            CREATE TABLE stockLedgerWithPlainIDs (
                id INTEGER PRIMARY KEY,
                time DATETIME NOT NULL,
                fruitId TEXT NOT NULL REFERENCES fruit(id),
                delta INTEGER NOT NULL,
                countAfter INTEGER NOT NULL,
                cause TEXT NOT NULL CHECK (cause IN ('order', 'edit', 'delivery', 'cancel')),
                juiceId TEXT REFERENCES juice(id),
                orderId INTEGER REFERENCES juiceOrder(id),
                actor TEXT NOT NULL
            );
            INSERT INTO stockLedgerWithPlainIDs (id, time, fruitId, delta, countAfter, cause, juiceId, orderId, actor)
                SELECT id, time, fruitId, delta, countAfter, cause, juiceId, orderId, actor FROM stockLedger;
            DROP TABLE stockLedger;
            ALTER TABLE stockLedgerWithPlainIDs RENAME TO stockLedger;
            CREATE INDEX stockLedger_orderId ON stockLedger(orderId);
            CREATE INDEX stockLedger_fruitId ON stockLedger(fruitId, id);

            DELETE FROM sqlite_sequence WHERE name IN ('juiceOrder', 'stockLedger');
            """)
    }

    /// A status, cause or kind is checked as equalities joined by OR (`oneOf`), no longer as
    /// `IN (…)`: SQLite checks a list of more than two constants through a temporary b-tree that
    /// it builds anew for every statement, so each order built four (its row's CHECK, the queue
    /// index's condition, its two ledger lines' CHECKs). And two indexes now hold only the rows
    /// their reads look for: orders with a member (a member's orders), and cancels' ledger lines
    /// (the day report's cancelled orders). An order made at the counter and its ledger lines no
    /// longer enter them. The ledger's index by fruit is gone: its one read, the counts at a day's
    /// close, now follows the lines the report reads anyway (`DayTally`). SQLite cannot change a
    /// CHECK, so the tables are copied, as `plainRowIDs` did (foreign keys off, checked after).
    private static func checksWithoutLists(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE juiceOrderCheckedByEquality (
                id INTEGER PRIMARY KEY,
                juiceId TEXT NOT NULL REFERENCES juice(id),
                time DATETIME NOT NULL,
                actor TEXT NOT NULL,
                accountId INTEGER REFERENCES account(id),
                number INTEGER NOT NULL DEFAULT 0,
                day TEXT NOT NULL DEFAULT '',
                status TEXT NOT NULL DEFAULT 'pickedUp'
                    CHECK \(oneOf("status", ["received", "making", "ready", "pickedUp", "cancelled"])),
                statusTime REAL NOT NULL DEFAULT 0,
                readyTime REAL,
                pickup INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO juiceOrderCheckedByEquality
                (id, juiceId, time, actor, accountId, number, day, status, statusTime, readyTime, pickup)
                SELECT id, juiceId, time, actor, accountId, number, day, status, statusTime, readyTime, pickup
                FROM juiceOrder;
            DROP TABLE juiceOrder;
            ALTER TABLE juiceOrderCheckedByEquality RENAME TO juiceOrder;
            CREATE INDEX juiceOrder_accountId ON juiceOrder(accountId) WHERE accountId IS NOT NULL;
            CREATE UNIQUE INDEX juiceOrder_dayNumber ON juiceOrder(day, number);
            CREATE INDEX juiceOrder_active ON juiceOrder(id) WHERE \(SQLiteJuiceBarStore.isActive);
            CREATE INDEX juiceOrder_pickupReady ON juiceOrder(readyTime) WHERE pickup AND readyTime IS NOT NULL;

            CREATE TABLE stockLedgerCheckedByEquality (
                id INTEGER PRIMARY KEY,
                time DATETIME NOT NULL,
                fruitId TEXT NOT NULL REFERENCES fruit(id),
                delta INTEGER NOT NULL,
                countAfter INTEGER NOT NULL,
                cause TEXT NOT NULL CHECK \(oneOf("cause", ["order", "edit", "delivery", "cancel"])),
                juiceId TEXT REFERENCES juice(id),
                orderId INTEGER REFERENCES juiceOrder(id),
                actor TEXT NOT NULL
            );
            INSERT INTO stockLedgerCheckedByEquality (id, time, fruitId, delta, countAfter, cause, juiceId, orderId, actor)
                SELECT id, time, fruitId, delta, countAfter, cause, juiceId, orderId, actor FROM stockLedger;
            DROP TABLE stockLedger;
            ALTER TABLE stockLedgerCheckedByEquality RENAME TO stockLedger;
            CREATE INDEX stockLedger_cancelledOrder ON stockLedger(orderId) WHERE cause = 'cancel';

            CREATE TABLE vendingMoneyLedgerCheckedByEquality (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                time DATETIME NOT NULL,
                kind TEXT NOT NULL CHECK \(oneOf("kind", ["insert", "spend", "return"])),
                amount INTEGER NOT NULL,
                balanceAfter INTEGER NOT NULL,
                actor TEXT NOT NULL
            );
            INSERT INTO vendingMoneyLedgerCheckedByEquality (id, time, kind, amount, balanceAfter, actor)
                SELECT id, time, kind, amount, balanceAfter, actor FROM vendingMoneyLedger;
            DROP TABLE vendingMoneyLedger;
            ALTER TABLE vendingMoneyLedgerCheckedByEquality RENAME TO vendingMoneyLedger;
            """)
    }

    /// Each day's last order number, in a row of its own, where a batch reads it and writes it
    /// once; no longer in a unique index of every order's day and number. SQLite splits an index
    /// that grows at its end as it splits one that grows in its middle, three leaves at a time,
    /// and so that index took a large share of the pages a batch of orders wrote to the WAL.
    /// Numbers stay unique as they are given: in the batch's transaction, from this row.
    private static func orderDays(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE orderDay (day TEXT PRIMARY KEY, lastNumber INTEGER NOT NULL) WITHOUT ROWID;
            INSERT INTO orderDay (day, lastNumber) SELECT day, MAX(number) FROM juiceOrder GROUP BY day;
            DROP INDEX juiceOrder_dayNumber;
            """)
    }

    /// Kept answers are no longer indexed by when they were made. That index served one statement,
    /// the deletion of keys past their lifetime, which ran in every keyed batch; each key's entry
    /// cost a keyed batch WAL pages of its own. Reads already pass over expired keys, so they are
    /// now swept by a scan every few minutes (`ExpiredKeySweep`).
    private static func keysSweptByScan(_ db: Database) throws {
        try db.execute(sql: "DROP INDEX idempotentRequest_created")
    }

    /// Kept answers under an id of their own, in the order they were kept, with no index of keys:
    /// each new key took a leaf of its own in the table's key order (most of the pages a keyed
    /// batch wrote to the WAL). Keys are found through `KeptKeys`, in memory. No AUTOINCREMENT
    /// (a row of `sqlite_sequence` rewritten with every key): a new row takes the id after the
    /// largest, and the sweep never deletes the newest row, so ids only grow.
    private static func keptInArrivalOrder(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE idempotentRequestByArrival (
                id INTEGER PRIMARY KEY,
                scope TEXT NOT NULL,
                key TEXT NOT NULL,
                request TEXT NOT NULL,
                created REAL NOT NULL,
                status INTEGER,
                contentType TEXT,
                body BLOB
            );
            INSERT INTO idempotentRequestByArrival (scope, key, request, created, status, contentType, body)
                SELECT scope, key, request, created, status, contentType, body FROM idempotentRequest ORDER BY created;
            DROP TABLE idempotentRequest;
            ALTER TABLE idempotentRequestByArrival RENAME TO idempotentRequest;
            """)
    }

    /// A kept key holds what its request asked as a `RequestFingerprint`, no longer as its text
    /// (`METHOD PATH\nBODY`), which a NUL byte in the body cut short.
    private static func requestFingerprints(_ db: Database) throws {
        let fingerprint = DatabaseFunction("requestFingerprint", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map(RequestFingerprint.of(keptText:))
        }
        db.add(function: fingerprint)
        defer { db.remove(function: fingerprint) }
        try db.execute(sql: "UPDATE idempotentRequest SET request = requestFingerprint(request)")
    }

    /// Tables, columns, indexes and triggers take the names they have in PostgreSQL (snake case),
    /// so both engines' schemas read alike; SQLite's own table and columns too (`order_day`,
    /// `idempotent_request.id`). SQLite renames a table or a column wherever it is named (other
    /// tables' references, indexes, triggers, `sqlite_sequence`); an index or a trigger cannot be
    /// renamed, so each is made again from its definition under its new name.
    private static func namesAsInPostgres(_ db: Database) throws {
        let tables: KeyValuePairs = [
            "recipeIngredient": "recipe_ingredient", "juiceOrder": "juice_order", "stockLedger": "stock_ledger",
            "failedSignIn": "failed_sign_in", "eventDismissal": "event_dismissal", "vendingProduct": "vending_product",
            "vendingSale": "vending_sale", "vendingItem": "vending_item", "vendingMoney": "vending_money",
            "vendingMoneyLedger": "vending_money_ledger", "dayReport": "day_report", "shopSetting": "shop_setting",
            "accountIdentity": "account_identity", "pendingSignIn": "pending_sign_in", "orderDay": "order_day",
            "idempotentRequest": "idempotent_request",
        ]
        for (table, name) in tables {
            try db.execute(sql: "ALTER TABLE \"\(table)\" RENAME TO \(name)")
        }
        let columns: KeyValuePairs<String, KeyValuePairs<String, String>> = [
            "fruit": ["nameKo": "name_ko", "nameEn": "name_en", "reorderLevel": "reorder_level"],
            "juice": ["nameKo": "name_ko", "nameEn": "name_en"],
            "recipe_ingredient": ["juiceId": "juice_id", "fruitId": "fruit_id"],
            "juice_order": ["juiceId": "juice_id", "accountId": "account_id", "statusTime": "status_time",
                            "readyTime": "ready_time"],
            "stock_ledger": ["fruitId": "fruit_id", "countAfter": "count_after", "juiceId": "juice_id", "orderId": "order_id"],
            "account": ["passwordHash": "password_hash", "createdAt": "created_at"],
            "session": ["accountId": "account_id", "shownEventId": "shown_event_id"],
            "event_dismissal": ["eventId": "event_id", "accountId": "account_id"],
            "vending_sale": ["productId": "product_id", "itemId": "item_id"],
            "vending_item": ["productId": "product_id", "saleId": "sale_id"],
            "vending_money_ledger": ["balanceAfter": "balance_after"],
            "image": ["contentType": "content_type"],
            "news": ["imageId": "image_id", "registeredAt": "registered_at"],
            "event": ["imageId": "image_id", "start": "starts", "end": "ends"],
            "shop_setting": ["timeZone": "time_zone"],
            "account_identity": ["accountId": "account_id", "linkedAt": "linked_at"],
            "pending_sign_in": ["codeVerifier": "code_verifier", "linkingAccountId": "linking_account_id"],
            "order_day": ["lastNumber": "last_number"],
            "idempotent_request": ["contentType": "content_type"],
        ]
        for (table, renamed) in columns {
            for (column, name) in renamed {
                try db.execute(sql: "ALTER TABLE \(table) RENAME COLUMN \"\(column)\" TO \(name)")
            }
        }
        // Each index and trigger as SQLite keeps it, the renames above already written into it.
        let indexesAndTriggers: KeyValuePairs = [
            "failedSignIn_username": "failed_sign_in_username", "vendingItem_unsold": "vending_item_unsold",
            "vendingItem_unsoldExpiry": "vending_item_unsold_expiry", "news_registeredAt": "news_registered_at",
            "pendingSignIn_expires": "pending_sign_in_expires", "juiceOrder_accountId": "juice_order_account_id",
            "juiceOrder_active": "juice_order_active", "juiceOrder_pickupReady": "juice_order_pickup_ready",
            "stockLedger_cancelledOrder": "stock_ledger_cancelled_order", "dayReport_neverUpdated": "day_report_never_updated",
            "dayReport_neverDeleted": "day_report_never_deleted", "dayReport_neverReplaced": "day_report_never_replaced",
        ]
        for (name, renamed) in indexesAndTriggers {
            let row = try Row.fetchOne(db, sql: "SELECT type, sql FROM sqlite_schema WHERE name = ?", arguments: [name])
            guard let row, let type = row["type"] as String?, var definition = row["sql"] as String?,
                  let mention = definition.range(of: name) else { throw StorageError.unusable("the shop's file lacks \(name)") }
            definition.replaceSubrange(mention, with: renamed)
            try db.execute(sql: "DROP \(type) \(name)")
            try db.execute(sql: definition)
        }
    }

    /// Juices sell by the cup: each has a price, option groups, 품절 and retirement; the shop's
    /// option groups are kept whole, one row each. A shop's seed juices take the seed's prices
    /// and groups (`Menu.seed`); a juice the shop added starts at 0원 until staff price it.
    private static func prices(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE juice ADD COLUMN price INTEGER NOT NULL DEFAULT 0 CHECK (price BETWEEN 0 AND 1000000);
            ALTER TABLE juice ADD COLUMN option_groups TEXT NOT NULL DEFAULT '[]';
            ALTER TABLE juice ADD COLUMN sold_out BOOLEAN NOT NULL DEFAULT FALSE;
            ALTER TABLE juice ADD COLUMN retired BOOLEAN NOT NULL DEFAULT FALSE;
            CREATE TABLE option_group (
                id TEXT PRIMARY KEY,
                position INTEGER NOT NULL,
                definition TEXT NOT NULL
            );
            """)
        for (position, group) in Menu.seed.optionGroups.enumerated() {
            try db.execute(sql: "INSERT INTO option_group (id, position, definition) VALUES (?, ?, ?)",
                           arguments: [group.id.rawValue, position, try group.storedDefinition()])
        }
        for juice in Menu.seed.juices {
            try db.execute(sql: "UPDATE juice SET price = ?, option_groups = ? WHERE id = ?",
                           arguments: [juice.price, try juice.optionGroups.storedDefinition(), juice.id.rawValue])
        }
    }

    /// An order keeps what it sold and how it was paid (`StoredSale`). An order from before has
    /// no lines, no total and no payment: one cup at no price, as it was.
    private static func sales(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE juice_order ADD COLUMN lines TEXT NOT NULL DEFAULT '[]';
            ALTER TABLE juice_order ADD COLUMN total INTEGER NOT NULL DEFAULT 0 CHECK (total >= 0);
            ALTER TABLE juice_order ADD COLUMN vat INTEGER NOT NULL DEFAULT 0 CHECK (vat >= 0);
            ALTER TABLE juice_order ADD COLUMN payment TEXT;
            ALTER TABLE juice_order ADD COLUMN refund TEXT;
            """)
    }

    /// `column` is one of `values`, in SQL: `(column = 'a' OR column = 'b' …)`. Not `column IN
    /// ('a', 'b', …)`, which SQLite checks through a temporary b-tree built for every statement
    /// once the list has more than two constants (`checksWithoutLists`).
    static func oneOf(_ column: String, _ values: [String]) -> String {
        "(" + values.map { "\(column) = '\($0)'" }.joined(separator: " OR ") + ")"
    }
}
