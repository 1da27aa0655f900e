import Foundation
import JuiceBar
import PostgresNIO
import ShopBasics
import Synchronization

/// The juice bar's stock in PostgreSQL, shared by every server. The writes waiting in this server
/// at one moment are decided together against one reading of the book and stored in one
/// transaction holding the fruit stock's lock, in a few multi-row statements: so no two
/// instances can sell the same last fruit, the ledger's ids grow in the order changes commit
/// (they are the snapshots' versions), and an order costs a share of one transaction, not one.
public struct PostgresJuiceBarStore: JuiceBarStore {
    private let database: PostgresDatabase
    private let now: @Sendable () -> Date
    private let batcher: Batcher<PendingWrite<StockWrite>, StockCommit>

    /// Orders are numbered by the shop's time zone as stored, which the book gives under the
    /// stock's lock (`PostgresShopSettingStore`), so a change made elsewhere is followed at once.
    init(database: PostgresDatabase, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
        let lastZone = LastZone()
        batcher = Batcher { batch in
            try await database.write(.fruitStock) { connection, lock in
                var claimed = try await PostgresIdempotencyStore.claim(batch.requests, in: connection)
                let (book, needs) = try await Self.fetchBook(connection, lock, for: claimed.acting, lastZone: lastZone)
                // The writes that came while this server waited for the lock join the batch that
                // holds it when the book read covers them and they have no key to claim: else they
                // would wait for a hold of their own, and several servers would take more turns
                // on the lock for the same orders (`scripts/bench-postgres --cpu-limit`).
                claimed.add(unkeyed: batch.join { $0.key == nil && needs.covers($0) })
                let decided = DecidedStockBatch(claimed.acting, on: book)
                let plans = decided.plans
                let stored = plans.isEmpty ? StoredStockPlans(plans: [], version: 0) : try await Self.store(plans, in: connection)
                let finished = try await PostgresIdempotencyStore.keep(claimed.finish(decided.answers(stored)), in: connection)
                return (finished, !plans.isEmpty || finished.keepsAnswers)
            }.committed()
        }
    }

    public func menu() async throws -> Menu {
        try await database.read(Self.fetchMenu)
    }

    public func stock() async throws -> StockSnapshot {
        // One statement, so the counts and the version come from the same moment.
        var snapshot = StockSnapshot(stock: Stock(), version: 0)
        for row in try await database.rows(
            "SELECT id, count, (SELECT coalesce(max(id), 0) FROM stock_ledger) FROM fruit") {
            let (fruit, count, version) = try row.decode((String, Int, Int64).self)
            snapshot.stock[FruitID(fruit)] = count
            snapshot.version = version
        }
        return snapshot
    }

    public func commit(_ write: StockWrite, actor: String, key: IdempotentWrite?) async throws -> StockCommit {
        try write.validate()
        return try await batcher.submit(PendingWrite<StockWrite>(write: write, actor: actor, time: now(), key: key))
    }

    public func orders(member: Int64?, limit: Int?) async throws -> [Order] {
        try await database.rows("""
            SELECT \(unescaped: Self.orderColumns.list) FROM juice_order
            WHERE \(member)::bigint IS NULL OR account_id = \(member)
            ORDER BY id DESC LIMIT \(limit)
            """).map(Self.order)
    }

    public func orders(in window: ExportWindow) async throws -> [Order] {
        try await window.rows(of: "juice_order", columns: Self.orderColumns.list, in: database).map(Self.order)
    }

    public func ledger(in window: ExportWindow) async throws -> [LedgerEntry] {
        try await window.rows(of: "stock_ledger", columns: Self.ledgerColumns.list, in: database).map(Self.ledgerEntry)
    }

    public func order(id: Int64) async throws -> Order? {
        try await database.rows("SELECT \(unescaped: Self.orderColumns.list) FROM juice_order WHERE id = \(id)").first.map(Self.order)
    }

    public func queue() async throws -> [Order] {
        try await database.rows("""
            SELECT \(unescaped: Self.orderColumns.list) FROM juice_order
            WHERE status IN \(unescaped: OrderStatus.activeSQL) ORDER BY id
            """).map(Self.order)
    }

    public func averageReadySeconds() async throws -> Double? {
        try await database.row("""
            SELECT avg(ready_time - time) FROM (
                SELECT ready_time, time FROM juice_order WHERE pickup AND ready_time IS NOT NULL
                ORDER BY ready_time DESC LIMIT \(OrderRules.recentOrdersForAverage)) recent
            """).decode(Double?.self)
    }

    /// What every read of orders selects, the fruit stock's book included (`order(_:)` reads it).
    static let orderColumns: PostgresColumns = [
        "id": "bigint", "juice_id": "text", "time": "double precision", "actor": "text", "number": "integer",
        "day": "text", "status": "text", "status_time": "double precision", "ready_time": "double precision",
        "pickup": "boolean", "account_id": "bigint", "lines": "text", "total": "integer", "vat": "integer",
        "payment": "text", "refund": "text",
    ]

    static func order(_ row: PostgresRow) throws -> Order {
        try order(row.makeRandomAccess())
    }

    /// The one decoder of an order, from a row of `orderColumns`, wherever it comes from.
    static func order(_ cells: PostgresRandomAccessRow) throws -> Order {
        let order = Order(
            id: try cells.decode("id"), juice: JuiceID(try cells.decode("juice_id", as: String.self)),
            time: Date(storedValue: try cells.decode("time")), actor: try cells.decode("actor"),
            number: try cells.decode("number"), day: try cells.decode("day"),
            status: OrderStatus(rawValue: try cells.decode("status")) ?? .pickedUp,
            statusTime: Date(storedValue: try cells.decode("status_time")),
            readyTime: try cells.decode("ready_time", as: Double?.self).map(Date.init(storedValue:)),
            pickup: try cells.decode("pickup"), member: try cells.decode("account_id"))
        return try StoredSale(lines: try cells.decode("lines"), total: try cells.decode("total"), vat: try cells.decode("vat"),
                              payment: try cells.decode("payment"), refund: try cells.decode("refund")).applied(to: order)
    }

    public func ledger(limit: Int?) async throws -> [LedgerEntry] {
        try await database.rows("""
            SELECT \(unescaped: Self.ledgerColumns.list) FROM stock_ledger ORDER BY id DESC LIMIT \(limit)
            """).map(Self.ledgerEntry)
    }

    /// What every read of the ledger selects (`ledgerEntry(_:)` reads it).
    static let ledgerColumns: PostgresColumns = [
        "id": "bigint", "time": "double precision", "fruit_id": "text", "delta": "integer", "count_after": "integer",
        "cause": "text", "juice_id": "text", "order_id": "bigint", "actor": "text",
    ]

    static func ledgerEntry(_ row: PostgresRow) throws -> LedgerEntry {
        let cells = row.makeRandomAccess()
        return LedgerEntry(
            id: try cells.decode("id"), time: Date(storedValue: try cells.decode("time")),
            fruit: FruitID(try cells.decode("fruit_id", as: String.self)), delta: try cells.decode("delta"),
            countAfter: try cells.decode("count_after"),
            cause: StockChangeCause(rawValue: try cells.decode("cause")) ?? .edit,
            juice: try cells.decode("juice_id", as: String?.self).map { JuiceID($0) }, orderID: try cells.decode("order_id"),
            actor: try cells.decode("actor"))
    }
}

// MARK: - Rows

extension PostgresJuiceBarStore {
    @Sendable static func fetchMenu(_ connection: PostgresConnection) async throws -> Menu {
        let fruits = try await connection.rows(
            "SELECT id AS fruit_id, name_ko, name_en, emoji, reorder_level FROM fruit ORDER BY position"
        ).map { try fruit($0.makeRandomAccess()) }
        var recipes: [JuiceID: [Ingredient]] = [:]
        for row in try await connection.rows("SELECT juice_id, fruit_id, amount FROM recipe_ingredient ORDER BY position") {
            let (juice, fruit, amount) = try row.decode((String, String, Int).self)
            recipes[JuiceID(juice), default: []].append(Ingredient(fruit: FruitID(fruit), amount: amount))
        }
        let juices = try await connection.rows(
            "SELECT \(unescaped: juiceColumns.selected(from: "juice", as: ["juice_id": "id"])) FROM juice ORDER BY position"
        ).map { row in
            var juice = try juice(row.makeRandomAccess())
            juice.recipe = recipes[juice.id] ?? []
            return juice
        }
        let groups = try await connection.rows("SELECT definition FROM option_group ORDER BY position").map {
            try optionGroups.value(of: try $0.decode(String.self))
        }
        return Menu(fruits: fruits, juices: juices, optionGroups: groups)
    }

    /// A fruit, from a row with its columns (`fruit_id`, `name_ko`, `name_en`, `emoji`, `reorder_level`).
    static func fruit(_ cells: PostgresRandomAccessRow) throws -> Fruit {
        Fruit(id: FruitID(try cells.decode("fruit_id", as: String.self)), name: try name(cells), emoji: try cells.decode("emoji"),
              level: try cells.decode("reorder_level"))
    }

    /// A juice's columns as its reads name them: `juice_id` is the table's `id`.
    static let juiceColumns: PostgresColumns = [
        "juice_id": "text", "name_ko": "text", "name_en": "text", "price": "integer", "option_groups": "text",
        "sold_out": "boolean", "retired": "boolean",
    ]

    /// The option groups' definitions and juices' lists of groups read before: every batch's book
    /// carries them.
    static let optionGroups = ReadDefinitions<MenuOptionGroup>()
    static let juiceGroups = ReadDefinitions<[OptionGroupID]>()

    /// A juice without its recipe, from a row with `juiceColumns`.
    static func juice(_ cells: PostgresRandomAccessRow) throws -> Juice {
        Juice(id: JuiceID(try cells.decode("juice_id", as: String.self)), name: try name(cells), recipe: [],
              price: try cells.decode("price"),
              optionGroups: try juiceGroups.value(of: try cells.decode("option_groups", as: String.self)),
              soldOut: try cells.decode("sold_out"), retired: try cells.decode("retired"))
    }

    /// A fruit's or a juice's names.
    private static func name(_ cells: PostgresRandomAccessRow) throws -> LocalizedName {
        LocalizedName(ko: try cells.decode("name_ko"), en: try cells.decode("name_en"))
    }

    /// The kinds of row `juice_bar_book` gives (`PostgresFunction.juiceBarBook`), told by their
    /// `kind`; each fills its own columns.
    enum BookRow: Int16 {
        /// A fruit (`fruit(_:)`) and its `count`.
        case fruit = 0
        /// A line of a recipe, each juice's lines together and in order: the juice (`juice_id`
        /// and its names), the fruit (`fruit_id`) and its `amount`.
        case recipeLine = 1
        /// The `last_number` given on a `day`, if any.
        case lastNumber = 2
        /// An order asked for (`order(_:)`).
        case order = 3
        /// The shop's `time_zone` as stored, the first row.
        case timeZone = 4
        /// An option group's `group_definition`, in the shop's order.
        case optionGroup = 5
    }

    /// The shop's zone as the last batch read it: the next batch counts its days by it before it
    /// reads the book, and only a batch that finds another zone stored reads the book again.
    final class LastZone: Sendable {
        private let seen = Mutex((name: ShopTimeZone.fallback, calendar: ShopCalendar(timeZone: ShopTimeZone.stored(ShopTimeZone.fallback))))

        var current: (name: String, calendar: ShopCalendar) { seen.withLock { $0 } }

        func saw(_ name: String) -> ShopCalendar {
            seen.withLock { seen in
                if seen.name != name { seen = (name, ShopCalendar(timeZone: ShopTimeZone.stored(name))) }
                return seen.calendar
            }
        }
    }

    /// Takes the fruit stock's lock and reads the book for `batch`, its days counted in the zone
    /// stored; when that is not the zone the last batch saw (rare: a change), the days may differ,
    /// so the book is read again, in the same transaction, for the days in the new zone. Comes
    /// with the needs it was read for.
    static func fetchBook(
        _ connection: PostgresConnection, _ lock: PostgresDatabase.PartLock, for batch: [PendingWrite<StockWrite>],
        lastZone: LastZone
    ) async throws -> (book: JuiceBarBook, needs: BookNeeds) {
        let last = lastZone.current
        let assumed = BookNeeds(batch, calendar: last.calendar)
        let (book, zone) = try await fetchBook(connection, lock, assumed)
        guard zone != last.name else { return (book, assumed) }
        let needs = BookNeeds(batch, calendar: lastZone.saw(zone))
        return (try await fetchBook(connection, lock, needs).book, needs)
    }

    /// Takes the fruit stock's lock and reads the book in one prepared statement: the shop's
    /// time zone, a row per fruit, a row per recipe line, the last number of each day asked, and
    /// each order asked. The book counts days as `needs` does; the zone stored comes beside it.
    static func fetchBook(
        _ connection: PostgresConnection, _ lock: PostgresDatabase.PartLock, _ needs: BookNeeds
    ) async throws -> (book: JuiceBarBook, zone: String) {
        var book = JuiceBarBook(menu: Menu(fruits: [], juices: []), stock: Stock(), calendar: needs.calendar)
        var zone = ""
        let rows = try await connection.execute(LockAndReadBook(lock: lock, needs: needs), logger: PostgresConnection.quiet)
        lock.taken()
        for try await row in rows {
            let cells = row.makeRandomAccess()
            switch BookRow(rawValue: try cells.decode("kind")) {
            case .fruit:
                let fruit = try fruit(cells)
                book.menu.fruits.append(fruit)
                book.stock[fruit.id] = try cells.decode("count")
            case .recipeLine:
                let line = Ingredient(fruit: FruitID(try cells.decode("fruit_id", as: String.self)), amount: try cells.decode("amount"))
                if book.menu.juices.last?.id.rawValue != (try cells.decode("juice_id", as: String.self)) {
                    book.menu.juices.append(try juice(cells))
                }
                book.menu.juices[book.menu.juices.count - 1].recipe.append(line)
            case .lastNumber:
                book.lastNumbers[try cells.decode("day")] = try cells.decode("last_number", as: Int?.self)
            case .order:
                let order = try order(cells)
                book.orders[order.id] = order
            case .timeZone:
                zone = try cells.decode("time_zone")
            case .optionGroup:
                book.menu.optionGroups.append(try optionGroups.value(of: try cells.decode("group_definition")))
            case nil:
                throw PostgresStoreError.unexpectedRow
            }
        }
        return (book, zone)
    }

    /// Writes a batch's plans in one statement whatever its size (new fruits and juices, rare,
    /// go first, one by one): the orders, their ledger lines (each joined to its order's id),
    /// and every changed count. Rows inserted from one ordered SELECT take their ids in that
    /// order, which is how each plan gets its ids back.
    static func store(_ plans: [StockPlan], in connection: PostgresConnection) async throws -> StoredStockPlans {
        for plan in plans {
            if let fruit = plan.newFruit { try await insert(fruit, count: plan.counts[fruit.id] ?? 0, in: connection) }
            if let juice = plan.newJuice { try await insert(juice, in: connection) }
            if let juice = plan.changedJuice { try await update(juice, in: connection) }
            if let group = plan.optionGroup { try await put(group, in: connection) }
            if let fruit = plan.newLevel {
                try await connection.run("UPDATE fruit SET reorder_level = \(fruit.level) WHERE id = \(fruit.id.rawValue)")
            }
        }
        let orders = plans.compactMap(\.order)
        // Each line names its order by the order's place among the batch's orders (1, 2, …; 0: none).
        var orderPlace = 0
        let lines = plans.flatMap { plan -> [(line: LedgerEntry, order: Int)] in
            if plan.order != nil { orderPlace += 1 }
            return plan.ledger.map { ($0, $0.cause == .order ? orderPlace : 0) }
        }
        let counts = plans.reduce(into: [FruitID: Int]()) { $0.merge($1.counts) { _, newer in newer } }
        // An order moved twice in one batch is stored as it ends up.
        let moved = Array(plans.reduce(into: [Int64: Order]()) { moved, plan in
            if let order = plan.changedOrder { moved[order.id] = order }
        }.values)
        let sales = try orders.map(StoredSale.init)
        let movedSales = try moved.map(StoredSale.init)
        var orderIDs: [Int64] = []
        var lineIDs: [Int64] = []
        var version: Int64 = 0
        let statement = StoreBatch(
            orderJuices: orders.map(\.juice.rawValue), orderTimes: orders.map(\.time.storedValue),
            orderActors: orders.map(\.actor), orderMembers: orders.map { $0.member ?? 0 },
            orderNumbers: orders.map(\.number), orderDays: orders.map(\.day), orderStatuses: orders.map(\.status.rawValue),
            orderReadyTimes: orders.map { $0.readyTime?.storedValue ?? -1 }, orderPickups: orders.map(\.pickup),
            orderLines: sales.map(\.lines), orderTotals: sales.map(\.total), orderVats: sales.map(\.vat),
            orderPayments: sales.map { $0.payment ?? "" },
            lineTimes: lines.map(\.line.time.storedValue), lineFruits: lines.map(\.line.fruit.rawValue),
            lineDeltas: lines.map(\.line.delta), lineCountsAfter: lines.map(\.line.countAfter),
            lineCauses: lines.map(\.line.cause.rawValue), lineJuices: lines.map { $0.line.juice?.rawValue ?? "" },
            linePlaces: lines.map(\.order), lineOrders: lines.map { $0.line.orderID ?? 0 }, lineActors: lines.map(\.line.actor),
            countFruits: counts.keys.map(\.rawValue), counts: Array(counts.values),
            movedOrders: moved.map(\.id), movedStatuses: moved.map(\.status.rawValue),
            movedTimes: moved.map(\.statusTime.storedValue), movedReadyTimes: moved.map { $0.readyTime?.storedValue ?? -1 },
            movedPayments: movedSales.map { $0.payment ?? "" }, movedRefunds: movedSales.map { $0.refund ?? "" })
        for try await (kind, id) in try await connection.execute(statement, logger: PostgresConnection.quiet) {
            switch StoreBatch.Answer(rawValue: kind) {
            case .order: orderIDs.append(id)
            case .ledgerLine: lineIDs.append(id)
            case .versionBefore: version = id
            case .countsWritten, .ordersMoved, nil: break
            }
        }
        var orderIDsInOrder = orderIDs.sorted().makeIterator()
        var lineIDsInOrder = lineIDs.sorted().makeIterator()
        let stored = plans.map { plan in
            var plan = plan
            if plan.order != nil { plan.order?.id = orderIDsInOrder.next()! }
            plan.ledger = plan.ledgerLines(orderID: plan.order?.id).map { line in
                var line = line
                line.id = lineIDsInOrder.next()!
                return line
            }
            return plan
        }
        // Before this statement's own lines, the newest line was `version`; after, its newest.
        return StoredStockPlans(plans: stored, version: lineIDs.max() ?? version)
    }

    /// The book's statement (`PostgresFunction.juiceBarBook`), prepared once per connection.
    struct LockAndReadBook: PostgresPreparedStatement {
        static let sql = "SELECT * FROM juice_bar_book($1, $2, $3, $4, $5)"
        typealias Row = PostgresRow

        let lock: PostgresDatabase.PartLock
        let needs: BookNeeds

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(lock.key)
            bindings.append(lock.channel)
            bindings.append(lock.instance)
            bindings.append(Array(needs.days))
            bindings.append(Array(needs.orders))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { row }
    }

    /// The statement that stores a batch, prepared once per connection so that PostgreSQL plans
    /// it once: the orders, their ledger lines (each line names a new order by its place among the
    /// batch's orders, 1, 2, …, or a stored order by its id, or neither: 0), the counts, and the
    /// orders moved, paid or cancelled (a ready time of -1, a payment or refund of '': none).
    /// Answers a row per `Answer`.
    struct StoreBatch: PostgresPreparedStatement {
        /// The kinds of row the statement answers, named by their first cell.
        enum Answer: Int {
            /// A new order's id, one row each.
            case order = 0
            /// A new ledger line's id, one row each.
            case ledgerLine = 1
            /// The newest ledger line's id before this statement's own.
            case versionBefore = 2
            /// How many fruits' counts were written.
            case countsWritten = 3
            /// How many orders were moved or cancelled.
            case ordersMoved = 4
        }

        static let sql = """
            WITH made AS (
                INSERT INTO juice_order (juice_id, time, actor, account_id, number, day, status, status_time, ready_time, pickup,
                                         lines, total, vat, payment)
                SELECT juice, time, actor, nullif(member, 0), number, day, status, time, nullif(ready, -1), pickup,
                       lines, total, vat, nullif(payment, '')
                FROM unnest($1::text[], $2::float8[], $3::text[], $4::int8[], $5::int8[], $6::text[], $7::text[],
                            $8::float8[], $9::bool[], $25::text[], $26::int8[], $27::int8[], $28::text[])
                     WITH ORDINALITY AS o(juice, time, actor, member, number, day, status, ready, pickup, lines, total, vat,
                                          payment, n)
                ORDER BY n
                RETURNING id
            ), placed AS (
                SELECT id, row_number() OVER (ORDER BY id) AS place FROM made
            ), recorded AS (
                INSERT INTO stock_ledger (time, fruit_id, delta, count_after, cause, juice_id, order_id, actor)
                SELECT l.time, l.fruit, l.delta, l.count_after, l.cause, nullif(l.juice, ''),
                       coalesce(placed.id, nullif(l.order_id, 0)), l.actor
                FROM unnest($10::float8[], $11::text[], $12::int8[], $13::int8[], $14::text[], $15::text[], $16::int8[],
                            $17::int8[], $18::text[])
                     WITH ORDINALITY AS l(time, fruit, delta, count_after, cause, juice, place, order_id, actor, n)
                LEFT JOIN placed ON placed.place = l.place
                ORDER BY l.n
                RETURNING id
            ), counted AS (
                UPDATE fruit SET count = c.count
                FROM unnest($19::text[], $20::int8[]) AS c(id, count)
                WHERE fruit.id = c.id
                RETURNING fruit.id
            ), moved AS (
                UPDATE juice_order SET status = m.status, status_time = m.time, ready_time = nullif(m.ready, -1),
                                       payment = nullif(m.payment, ''), refund = nullif(m.refund, '')
                FROM unnest($21::int8[], $22::text[], $23::float8[], $24::float8[], $29::text[], $30::text[])
                     AS m(id, status, time, ready, payment, refund)
                WHERE juice_order.id = m.id
                RETURNING juice_order.id
            )
            SELECT 0, id FROM made
            UNION ALL SELECT 1, id FROM recorded
            UNION ALL SELECT 2, coalesce(max(id), 0) FROM stock_ledger
            UNION ALL SELECT 3, count(*) FROM counted
            UNION ALL SELECT 4, count(*) FROM moved
            """
        typealias Row = (Int, Int64)

        var orderJuices: [String], orderTimes: [Double], orderActors: [String], orderMembers: [Int64]
        var orderNumbers: [Int], orderDays: [String], orderStatuses: [String], orderReadyTimes: [Double]
        var orderPickups: [Bool], orderLines: [String], orderTotals: [Int], orderVats: [Int], orderPayments: [String]
        var lineTimes: [Double], lineFruits: [String], lineDeltas: [Int], lineCountsAfter: [Int]
        var lineCauses: [String], lineJuices: [String], linePlaces: [Int], lineOrders: [Int64], lineActors: [String]
        var countFruits: [String], counts: [Int]
        var movedOrders: [Int64], movedStatuses: [String], movedTimes: [Double], movedReadyTimes: [Double]
        var movedPayments: [String], movedRefunds: [String]

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 30)
            bindings.append(orderJuices)
            bindings.append(orderTimes)
            bindings.append(orderActors)
            bindings.append(orderMembers)
            bindings.append(orderNumbers)
            bindings.append(orderDays)
            bindings.append(orderStatuses)
            bindings.append(orderReadyTimes)
            bindings.append(orderPickups)
            bindings.append(lineTimes)
            bindings.append(lineFruits)
            bindings.append(lineDeltas)
            bindings.append(lineCountsAfter)
            bindings.append(lineCauses)
            bindings.append(lineJuices)
            bindings.append(linePlaces)
            bindings.append(lineOrders)
            bindings.append(lineActors)
            bindings.append(countFruits)
            bindings.append(counts)
            bindings.append(movedOrders)
            bindings.append(movedStatuses)
            bindings.append(movedTimes)
            bindings.append(movedReadyTimes)
            bindings.append(orderLines)
            bindings.append(orderTotals)
            bindings.append(orderVats)
            bindings.append(orderPayments)
            bindings.append(movedPayments)
            bindings.append(movedRefunds)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    static func insert(_ fruit: Fruit, count: Int, in connection: PostgresConnection) async throws {
        try await connection.run("""
            INSERT INTO fruit (id, name_ko, name_en, emoji, position, count)
            VALUES (\(fruit.id.rawValue), \(fruit.name.ko), \(fruit.name.en), \(fruit.emoji),
                    (SELECT count(*) FROM fruit), \(count))
            """)
    }

    static func insert(_ juice: Juice, in connection: PostgresConnection) async throws {
        try await connection.run("""
            INSERT INTO juice (id, name_ko, name_en, price, option_groups, sold_out, retired, position)
            VALUES (\(juice.id.rawValue), \(juice.name.ko), \(juice.name.en), \(juice.price),
                    \(try juice.optionGroups.storedDefinition()), \(juice.soldOut), \(juice.retired), (SELECT count(*) FROM juice))
            """)
        try await insertRecipe(of: juice, in: connection)
    }

    /// Stores a juice as staff changed it, its recipe written again.
    static func update(_ juice: Juice, in connection: PostgresConnection) async throws {
        try await connection.run("""
            UPDATE juice SET name_ko = \(juice.name.ko), name_en = \(juice.name.en), price = \(juice.price),
                option_groups = \(try juice.optionGroups.storedDefinition()), sold_out = \(juice.soldOut),
                retired = \(juice.retired)
            WHERE id = \(juice.id.rawValue)
            """)
        try await connection.run("DELETE FROM recipe_ingredient WHERE juice_id = \(juice.id.rawValue)")
        try await insertRecipe(of: juice, in: connection)
    }

    private static func insertRecipe(of juice: Juice, in connection: PostgresConnection) async throws {
        for (position, ingredient) in juice.recipe.enumerated() {
            try await connection.run("""
                INSERT INTO recipe_ingredient (juice_id, fruit_id, amount, position)
                VALUES (\(juice.id.rawValue), \(ingredient.fruit.rawValue), \(ingredient.amount), \(position))
                """)
        }
    }

    /// Adds an option group after the others, or replaces the one with its id where it stands.
    static func put(_ group: MenuOptionGroup, in connection: PostgresConnection) async throws {
        try await connection.run("""
            INSERT INTO option_group (id, position, definition)
            VALUES (\(group.id.rawValue), (SELECT count(*) FROM option_group), \(try group.storedDefinition()))
            ON CONFLICT (id) DO UPDATE SET definition = excluded.definition
            """)
    }
}
