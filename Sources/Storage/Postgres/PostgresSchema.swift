import Foundation
import JuiceBar
import PostgresNIO
import VendingMachine

/// The shop's tables in PostgreSQL and the seed data of a new shop. The same tables, under the
/// same names, as in SQLite; moments are seconds since 1970 (double precision) as there, so both
/// engines give back exactly the times they were given.
enum PostgresSchema {
    typealias Migration = (name: String, apply: @Sendable (PostgresConnection) async throws -> Void)

    /// A migration never changes once shipped; new ones are added at the end. The shop's functions
    /// are not made here but from their one definition each, after these (`PostgresFunction`).
    static let migrations: [Migration] = [
        ("shop.v1", createShop),
        ("sign_in_attempt_id.v2", { connection in
            try await connection.run("ALTER TABLE failed_sign_in ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
        }),
        // Made the books of the fruit stock and of the vending machine, functions now made from
        // their definitions (`PostgresFunction.all`).
        ("locking_reads.v3", { _ in }),
        // Definitions stored before a category was written as plain fields beside its kind.
        ("plain_categories.v4", { connection in
            for product in Catalog.products {
                try await connection.run(
                    "UPDATE vending_product SET definition = \(try product.storedDefinition()) WHERE id = \(product.id)")
            }
        }),
        ("queue.v5", { connection in
            for statement in queue { try await connection.run(PostgresQuery(unsafeSQL: statement)) }
        }),
        ("day_reports.v6", { connection in
            for statement in dayReports { try await connection.run(PostgresQuery(unsafeSQL: statement)) }
        }),
        // The shop's own settings, one row: the time zone its days are counted in. A shop made
        // before takes the rule a new one does (`TZ` if it names a zone, else Asia/Seoul).
        ("shop_setting.v7", { connection in
            try await connection.run("""
                CREATE TABLE shop_setting (
                    id smallint PRIMARY KEY CHECK (id = 1),
                    time_zone text NOT NULL
                )
                """)
            try await connection.run("INSERT INTO shop_setting (id, time_zone) VALUES (1, \(ShopTimeZone.initialName()))")
        }),
        ("identities.v8", { connection in
            for statement in identities { try await connection.run(PostgresQuery(unsafeSQL: statement)) }
        }),
        // Gave the time zone in the fruit stock's book, now made from its definition (`PostgresFunction`).
        ("book_time_zone.v9", { _ in }),
        // As in SQLite, two indexes hold only the rows their reads look for: orders with a member
        // (a member's orders) and cancels' ledger lines (the day report's cancelled orders); and
        // the ledger's index by fruit is gone, since the counts at a close follow the report's
        // own lines (`DayTally`).
        ("indexes_for_their_reads.v10", { connection in
            for statement in indexesForTheirReads { try await connection.run(PostgresQuery(unsafeSQL: statement)) }
        }),
        // A kept key holds what its request asked as a `RequestFingerprint`: the SHA-256 of the
        // text it held before (`METHOD PATH\nBODY`), as the new code computes it.
        ("request_fingerprints.v11", { connection in
            try await connection.run("UPDATE idempotent_request SET request = encode(sha256(convert_to(request, 'UTF8')), 'hex')")
        }),
        // Juices sell by the cup, as in SQLite (`juiceBar.v8.prices`): a price, option groups,
        // 품절 and retirement; the seed juices take the seed's prices and groups.
        ("prices.v12", { connection in
            for statement in prices { try await connection.run(PostgresQuery(unsafeSQL: statement)) }
            for (position, group) in Menu.seed.optionGroups.enumerated() {
                try await connection.run("""
                    INSERT INTO option_group (id, position, definition)
                    VALUES (\(group.id.rawValue), \(position), \(try group.storedDefinition()))
                    """)
            }
            for juice in Menu.seed.juices {
                try await connection.run("""
                    UPDATE juice SET price = \(juice.price), option_groups = \(try juice.optionGroups.storedDefinition())
                    WHERE id = \(juice.id.rawValue)
                    """)
            }
        }),
        // An order keeps what it sold and how it was paid, as in SQLite (`juiceBar.v9.sales`).
        ("sales.v13", { connection in
            for statement in sales { try await connection.run(PostgresQuery(unsafeSQL: statement)) }
        }),
        ("shop_info.v14", PostgresShopSettingStore.addShopInfo),
    ]

    static let prices = [
        "ALTER TABLE juice ADD COLUMN price integer NOT NULL DEFAULT 0 CHECK (price BETWEEN 0 AND 1000000)",
        "ALTER TABLE juice ADD COLUMN option_groups text NOT NULL DEFAULT '[]'",
        "ALTER TABLE juice ADD COLUMN sold_out boolean NOT NULL DEFAULT false",
        "ALTER TABLE juice ADD COLUMN retired boolean NOT NULL DEFAULT false",
        """
        CREATE TABLE option_group (
            id text PRIMARY KEY,
            position integer NOT NULL,
            definition text NOT NULL
        )
        """,
    ]

    static let sales = [
        "ALTER TABLE juice_order ADD COLUMN lines text NOT NULL DEFAULT '[]'",
        "ALTER TABLE juice_order ADD COLUMN total integer NOT NULL DEFAULT 0 CHECK (total >= 0)",
        "ALTER TABLE juice_order ADD COLUMN vat integer NOT NULL DEFAULT 0 CHECK (vat >= 0)",
        "ALTER TABLE juice_order ADD COLUMN payment text",
        "ALTER TABLE juice_order ADD COLUMN refund text",
    ]

    /// The migrations, then the making of each function whose definition is new to the database.
    static var steps: [Migration] { migrations + PostgresFunction.all.map(\.migration) }

    /// Applies what is missing, holding a lock so that instances starting together take turns, in
    /// one transaction with the records of what it applied: a failure leaves nothing behind.
    static func migrate(_ database: PostgresDatabase) async throws {
        try await database.transaction { connection in
            // Instances starting together wait for each other's migrations however long they take.
            try await connection.run("SET LOCAL lock_timeout = 0")
            try await connection.run("SELECT pg_advisory_xact_lock(\(PostgresDatabase.migrationLock))")
            try await connection.run("""
                CREATE TABLE IF NOT EXISTS schema_migration (
                    name text PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            let applied = try await connection.rows("SELECT name FROM schema_migration")
                .map { try $0.decode(String.self) }
            for migration in steps where !applied.contains(migration.name) {
                try await migration.apply(connection)
                try await connection.run("INSERT INTO schema_migration (name) VALUES (\(migration.name))")
            }
            // A new shop's fruits and juices are stored once every table has its newest shape,
            // as the current code stores any batch.
            if !applied.contains(migrations[0].name) {
                _ = try await PostgresJuiceBarStore.store(DecidedStockBatch.seed(at: Date()).plans, in: connection)
            }
        }
    }

    @Sendable private static func createShop(_ connection: PostgresConnection) async throws {
        for statement in shopTables {
            try await connection.run(PostgresQuery(unsafeSQL: statement))
        }
        let now = Date()
        for (position, product) in Catalog.products.enumerated() {
            try await connection.run("""
                INSERT INTO vending_product (id, position, definition)
                VALUES (\(product.id), \(position), \(try product.storedDefinition()))
                """)
            try await PostgresVendingStore.addItems(of: product, count: Catalog.startingCount, manufactured: now, in: connection)
        }
    }

    private static let shopTables = [
        """
        CREATE TABLE fruit (
            id text PRIMARY KEY,
            name_ko text NOT NULL,
            name_en text NOT NULL,
            emoji text NOT NULL,
            position integer NOT NULL,
            count integer NOT NULL CHECK (count BETWEEN 0 AND 1000000)
        )
        """,
        """
        CREATE TABLE juice (
            id text PRIMARY KEY,
            name_ko text NOT NULL,
            name_en text NOT NULL,
            position integer NOT NULL
        )
        """,
        """
        CREATE TABLE recipe_ingredient (
            juice_id text NOT NULL REFERENCES juice(id),
            fruit_id text NOT NULL REFERENCES fruit(id),
            amount integer NOT NULL CHECK (amount > 0),
            position integer NOT NULL,
            PRIMARY KEY (juice_id, fruit_id)
        )
        """,
        """
        CREATE TABLE account (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            username text NOT NULL UNIQUE,
            name text NOT NULL,
            password_hash text NOT NULL,
            role text NOT NULL CHECK (role IN ('member', 'staff')),
            created_at double precision NOT NULL
        )
        """,
        """
        CREATE TABLE juice_order (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            juice_id text NOT NULL REFERENCES juice(id),
            time double precision NOT NULL,
            actor text NOT NULL,
            account_id bigint REFERENCES account(id)
        )
        """,
        "CREATE INDEX juice_order_account_id ON juice_order(account_id)",
        """
        CREATE TABLE stock_ledger (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            time double precision NOT NULL,
            fruit_id text NOT NULL REFERENCES fruit(id),
            delta integer NOT NULL,
            count_after integer NOT NULL,
            cause text NOT NULL CHECK (cause IN ('order', 'edit', 'delivery')),
            juice_id text REFERENCES juice(id),
            order_id bigint REFERENCES juice_order(id),
            actor text NOT NULL
        )
        """,
        "CREATE INDEX stock_ledger_order_id ON stock_ledger(order_id)",
        """
        CREATE TABLE session (
            token text PRIMARY KEY,
            account_id bigint NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            expires double precision NOT NULL,
            shown_event_id bigint
        )
        """,
        """
        CREATE TABLE failed_sign_in (
            username text NOT NULL,
            time double precision NOT NULL
        )
        """,
        "CREATE INDEX failed_sign_in_username ON failed_sign_in(username, time)",
        """
        CREATE TABLE event_dismissal (
            event_id bigint NOT NULL,
            account_id bigint NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            until double precision NOT NULL,
            PRIMARY KEY (event_id, account_id)
        )
        """,
        """
        CREATE TABLE vending_product (
            id text PRIMARY KEY,
            position integer NOT NULL,
            definition text NOT NULL,
            unsold integer NOT NULL DEFAULT 0 CHECK (unsold >= 0)
        )
        """,
        """
        CREATE TABLE vending_sale (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            product_id text NOT NULL REFERENCES vending_product(id),
            price integer NOT NULL CHECK (price >= 0),
            time double precision NOT NULL,
            item_id bigint NOT NULL UNIQUE,
            actor text NOT NULL
        )
        """,
        """
        CREATE TABLE vending_item (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            product_id text NOT NULL REFERENCES vending_product(id),
            manufactured double precision NOT NULL,
            expires double precision NOT NULL,
            sale_id bigint REFERENCES vending_sale(id)
        )
        """,
        "CREATE INDEX vending_item_unsold ON vending_item(product_id, manufactured, id) WHERE sale_id IS NULL",
        "CREATE INDEX vending_item_unsold_expiry ON vending_item(expires) WHERE sale_id IS NULL",
        """
        CREATE TABLE vending_money (
            id integer PRIMARY KEY CHECK (id = 1),
            balance integer NOT NULL CHECK (balance BETWEEN 0 AND 50000),
            inserted bigint NOT NULL,
            spent bigint NOT NULL,
            returned bigint NOT NULL,
            version bigint NOT NULL,
            CHECK (inserted = spent + returned + balance)
        )
        """,
        "INSERT INTO vending_money (id, balance, inserted, spent, returned, version) VALUES (1, 0, 0, 0, 0, 0)",
        """
        CREATE TABLE vending_money_ledger (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            time double precision NOT NULL,
            kind text NOT NULL CHECK (kind IN ('insert', 'spend', 'return')),
            amount integer NOT NULL,
            balance_after integer NOT NULL,
            actor text NOT NULL
        )
        """,
        """
        CREATE TABLE image (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            content_type text NOT NULL,
            bytes bytea NOT NULL
        )
        """,
        """
        CREATE TABLE news (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            title text NOT NULL,
            body text NOT NULL,
            image_id bigint REFERENCES image(id),
            registered_at double precision NOT NULL
        )
        """,
        "CREATE INDEX news_registered_at ON news(registered_at)",
        """
        CREATE TABLE event (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            title text NOT NULL,
            body text NOT NULL,
            image_id bigint REFERENCES image(id),
            starts double precision NOT NULL,
            ends double precision NOT NULL
        )
        """,
    ]

    /// The queue: each order's number within its shop day, its status and when it changed, cancels
    /// in the ledger, kept answers of idempotent requests, and each fruit's reorder level. Orders
    /// made before were made on the spot: `pickedUp`, numbered in the order they came on each (UTC)
    /// day. The fruit stock's first book gave way to `juice_bar_book` (`PostgresFunction`).
    private static let queue = [
        "DROP FUNCTION IF EXISTS fruit_stock_book(bigint, text, text)",
        "ALTER TABLE fruit ADD COLUMN reorder_level integer NOT NULL DEFAULT 0 CHECK (reorder_level BETWEEN 0 AND 1000000)",
        """
        ALTER TABLE juice_order
            ADD COLUMN number integer NOT NULL DEFAULT 0,
            ADD COLUMN day text NOT NULL DEFAULT '',
            ADD COLUMN status text NOT NULL DEFAULT 'pickedUp'
                CHECK (status IN ('received', 'making', 'ready', 'pickedUp', 'cancelled')),
            ADD COLUMN status_time double precision NOT NULL DEFAULT 0,
            ADD COLUMN ready_time double precision,
            ADD COLUMN pickup boolean NOT NULL DEFAULT false
        """,
        """
        UPDATE juice_order SET day = to_char(to_timestamp(time) AT TIME ZONE 'UTC', 'YYYY-MM-DD'),
                               status_time = time, ready_time = time
        """,
        """
        UPDATE juice_order o SET number = n.number
        FROM (SELECT id, row_number() OVER (PARTITION BY day ORDER BY id) AS number FROM juice_order) n
        WHERE o.id = n.id
        """,
        "CREATE UNIQUE INDEX juice_order_day_number ON juice_order(day, number)",
        "CREATE INDEX juice_order_active ON juice_order(id) WHERE status IN \(OrderStatus.activeSQL)",
        "CREATE INDEX juice_order_pickup_ready ON juice_order(ready_time) WHERE pickup AND ready_time IS NOT NULL",
        """
        ALTER TABLE stock_ledger DROP CONSTRAINT stock_ledger_cause_check,
            ADD CONSTRAINT stock_ledger_cause_check CHECK (cause IN ('order', 'edit', 'delivery', 'cancel'))
        """,
        """
        CREATE TABLE idempotent_request (
            scope text NOT NULL,
            key text NOT NULL,
            request text NOT NULL,
            created double precision NOT NULL,
            status integer,
            content_type text,
            body bytea,
            PRIMARY KEY (scope, key)
        )
        """,
        "CREATE INDEX idempotent_request_created ON idempotent_request(created)",
    ]

    /// The closed days' reports, never changed once stored (a trigger refuses it), and the index
    /// the counts at close read.
    private static let dayReports = [
        """
        CREATE TABLE day_report (
            number integer PRIMARY KEY,
            day text NOT NULL UNIQUE,
            body text NOT NULL,
            hash text NOT NULL
        )
        """,
        "CREATE INDEX stock_ledger_fruit_id ON stock_ledger(fruit_id, id)",
        """
        CREATE FUNCTION day_report_never_changes() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'a day report never changes';
        END $$
        """,
        """
        CREATE TRIGGER day_report_never_changes BEFORE UPDATE OR DELETE ON day_report
            FOR EACH ROW EXECUTE FUNCTION day_report_never_changes()
        """,
        """
        CREATE TRIGGER day_report_never_truncated BEFORE TRUNCATE ON day_report
            FOR EACH STATEMENT EXECUTE FUNCTION day_report_never_changes()
        """,
    ]

    private static let indexesForTheirReads = [
        "DROP INDEX juice_order_account_id",
        "CREATE INDEX juice_order_account_id ON juice_order(account_id) WHERE account_id IS NOT NULL",
        "DROP INDEX stock_ledger_order_id",
        "CREATE INDEX stock_ledger_cancelled_order ON stock_ledger(order_id) WHERE cause = 'cancel'",
        "DROP INDEX stock_ledger_fruit_id",
    ]

    /// Members' identities at outside providers (Kakao), the sign-ins on their way there, and
    /// accounts without a password (made by such a sign-in).
    private static let identities = [
        "ALTER TABLE account ALTER COLUMN password_hash DROP NOT NULL",
        """
        CREATE TABLE account_identity (
            issuer text NOT NULL,
            subject text NOT NULL,
            account_id bigint NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            linked_at double precision NOT NULL,
            PRIMARY KEY (issuer, subject),
            UNIQUE (account_id, issuer)
        )
        """,
        """
        CREATE TABLE pending_sign_in (
            state text PRIMARY KEY,
            browser text NOT NULL,
            nonce text NOT NULL,
            code_verifier text NOT NULL,
            next text NOT NULL,
            language text NOT NULL,
            linking_account_id bigint REFERENCES account(id) ON DELETE CASCADE,
            expires double precision NOT NULL
        )
        """,
        "CREATE INDEX pending_sign_in_expires ON pending_sign_in(expires)",
    ]
}
