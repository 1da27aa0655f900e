import Foundation
import JuiceBar
import PostgresNIO

/// The juice bar's stock in PostgreSQL, shared by every server. The writes waiting in this server
/// at one moment are decided together against one reading of the book and stored in one
/// transaction holding the fruit stock's lock, in a few multi-row statements: so no two
/// instances can sell the same last fruit, the ledger's ids grow in the order changes commit
/// (they are the snapshots' versions), and an order costs a share of one transaction, not one.
public struct PostgresJuiceBarStore: JuiceBarStore {
    private let database: PostgresDatabase
    private let now: @Sendable () -> Date
    private let batcher: Batcher<PendingStockWrite, StockCommit>

    init(database: PostgresDatabase, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
        batcher = Batcher { batch in
            do {
                return try await database.write(.fruitStock) { connection in
                    let decided = DecidedStockBatch(batch, on: try await Self.fetchBook(connection))
                    return decided.answers(try await Self.store(decided.plans, in: connection))
                }
            } catch {
                return batch.map { _ in .failure(error) }
            }
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

    public func commit(_ write: StockWrite, actor: String) async throws -> StockCommit {
        try await batcher.submit(PendingStockWrite(write: write, actor: actor, time: now()))
    }

    public func orders(member: Int64?, limit: Int?) async throws -> [Order] {
        try await database.rows("""
            SELECT id, juice_id, time, actor FROM juice_order
            WHERE \(member)::bigint IS NULL OR account_id = \(member)
            ORDER BY id DESC LIMIT \(limit)
            """).map { row in
            let (id, juice, time, actor) = try row.decode((Int64, String, Double, String).self)
            return Order(id: id, juice: JuiceID(juice), time: Date(storedValue: time), actor: actor)
        }
    }

    public func ledger(limit: Int?) async throws -> [LedgerEntry] {
        try await database.rows("""
            SELECT id, time, fruit_id, delta, count_after, cause, juice_id, order_id, actor
            FROM stock_ledger ORDER BY id DESC LIMIT \(limit)
            """).map { row in
            let (id, time, fruit, delta, countAfter, cause, juice, orderID, actor) =
                try row.decode((Int64, Double, String, Int, Int, String, String?, Int64?, String).self)
            return LedgerEntry(
                id: id, time: Date(storedValue: time), fruit: FruitID(fruit), delta: delta, countAfter: countAfter,
                cause: StockChangeCause(rawValue: cause) ?? .edit, juice: juice.map { JuiceID($0) }, orderID: orderID,
                actor: actor)
        }
    }
}

// MARK: - Rows

extension PostgresJuiceBarStore {
    @Sendable static func fetchMenu(_ connection: PostgresConnection) async throws -> Menu {
        let fruits = try await connection.rows("SELECT id, name_ko, name_en, emoji FROM fruit ORDER BY position").map { row in
            let (id, ko, en, emoji) = try row.decode((String, String, String, String).self)
            return Fruit(id: FruitID(id), name: LocalizedName(ko: ko, en: en), emoji: emoji)
        }
        var recipes: [JuiceID: [Ingredient]] = [:]
        for row in try await connection.rows("SELECT juice_id, fruit_id, amount FROM recipe_ingredient ORDER BY position") {
            let (juice, fruit, amount) = try row.decode((String, String, Int).self)
            recipes[JuiceID(juice), default: []].append(Ingredient(fruit: FruitID(fruit), amount: amount))
        }
        let juices = try await connection.rows("SELECT id, name_ko, name_en FROM juice ORDER BY position").map { row in
            let (id, ko, en) = try row.decode((String, String, String).self)
            return Juice(id: JuiceID(id), name: LocalizedName(ko: ko, en: en), recipe: recipes[JuiceID(id)] ?? [])
        }
        return Menu(fruits: fruits, juices: juices)
    }

    /// The menu and the counts, in two statements.
    static func fetchBook(_ connection: PostgresConnection) async throws -> JuiceBarBook {
        var book = JuiceBarBook(menu: Menu(fruits: [], juices: []), stock: Stock())
        for row in try await connection.rows("SELECT id, name_ko, name_en, emoji, count FROM fruit ORDER BY position") {
            let (id, ko, en, emoji, count) = try row.decode((String, String, String, String, Int).self)
            book.menu.fruits.append(Fruit(id: FruitID(id), name: LocalizedName(ko: ko, en: en), emoji: emoji))
            book.stock[FruitID(id)] = count
        }
        for row in try await connection.rows("""
            SELECT j.id, j.name_ko, j.name_en, r.fruit_id, r.amount
            FROM juice j JOIN recipe_ingredient r ON r.juice_id = j.id ORDER BY j.position, r.position
            """) {
            let (id, ko, en, fruit, amount) = try row.decode((String, String, String, String, Int).self)
            let ingredient = Ingredient(fruit: FruitID(fruit), amount: amount)
            if book.menu.juices.last?.id == JuiceID(id) {
                book.menu.juices[book.menu.juices.count - 1].recipe.append(ingredient)
            } else {
                book.menu.juices.append(Juice(id: JuiceID(id), name: LocalizedName(ko: ko, en: en), recipe: [ingredient]))
            }
        }
        return book
    }

    /// Writes a batch's plans in a few statements whatever its size: new fruits and juices (rare)
    /// one by one, then every order in one statement, every ledger line in one, and every
    /// changed count in one. Rows inserted from one ordered SELECT take their ids in that order.
    static func store(_ plans: [StockPlan], in connection: PostgresConnection) async throws -> StoredStockPlans {
        var plans = plans
        for plan in plans {
            if let fruit = plan.newFruit { try await insert(fruit, count: plan.counts[fruit.id] ?? 0, in: connection) }
            if let juice = plan.newJuice { try await insert(juice, in: connection) }
        }
        let orders = plans.indices.filter { plans[$0].order != nil }
        if !orders.isEmpty {
            let made = orders.map { plans[$0].order! }
            let ids = try await connection.rows("""
                INSERT INTO juice_order (juice_id, time, actor, account_id)
                SELECT juice, time, actor, nullif(member, 0)
                FROM unnest(\(made.map(\.juice.rawValue)), \(made.map(\.time.storedValue)), \(made.map(\.actor)),
                            \(orders.map { plans[$0].member ?? 0 })) WITH ORDINALITY AS o(juice, time, actor, member, n)
                ORDER BY n
                RETURNING id
                """).map { try $0.decode(Int64.self) }.sorted()
            for (index, id) in zip(orders, ids) { plans[index].order?.id = id }
        }
        for index in plans.indices { plans[index].ledger = plans[index].ledgerLines(orderID: plans[index].order?.id) }
        let lines = plans.flatMap(\.ledger)
        var version: Int64
        if lines.isEmpty {
            version = try await connection.row("SELECT coalesce(max(id), 0) FROM stock_ledger").decode(Int64.self)
        } else {
            var ids = try await connection.rows("""
                INSERT INTO stock_ledger (time, fruit_id, delta, count_after, cause, juice_id, order_id, actor)
                SELECT time, fruit, delta, count_after, cause, nullif(juice, ''), nullif(order_id, 0), actor
                FROM unnest(\(lines.map(\.time.storedValue)), \(lines.map(\.fruit.rawValue)), \(lines.map(\.delta)),
                            \(lines.map(\.countAfter)), \(lines.map(\.cause.rawValue)), \(lines.map { $0.juice?.rawValue ?? "" }),
                            \(lines.map { $0.orderID ?? 0 }), \(lines.map(\.actor)))
                     WITH ORDINALITY AS l(time, fruit, delta, count_after, cause, juice, order_id, actor, n)
                ORDER BY n
                RETURNING id
                """).map { try $0.decode(Int64.self) }.sorted().makeIterator()
            for index in plans.indices {
                for line in plans[index].ledger.indices { plans[index].ledger[line].id = ids.next()! }
            }
            version = plans.last { !$0.ledger.isEmpty }!.ledger.last!.id
        }
        let counts = plans.reduce(into: [FruitID: Int]()) { $0.merge($1.counts) { _, newer in newer } }
        if !counts.isEmpty {
            try await connection.run("""
                UPDATE fruit SET count = c.count
                FROM unnest(\(counts.keys.map(\.rawValue)), \(Array(counts.values))) AS c(id, count)
                WHERE fruit.id = c.id
                """)
        }
        return StoredStockPlans(plans: plans, version: version)
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
            INSERT INTO juice (id, name_ko, name_en, position)
            VALUES (\(juice.id.rawValue), \(juice.name.ko), \(juice.name.en), (SELECT count(*) FROM juice))
            """)
        for (position, ingredient) in juice.recipe.enumerated() {
            try await connection.run("""
                INSERT INTO recipe_ingredient (juice_id, fruit_id, amount, position)
                VALUES (\(juice.id.rawValue), \(ingredient.fruit.rawValue), \(ingredient.amount), \(position))
                """)
        }
    }
}

extension Date {
    /// A moment as the shop stores it (see `storedValue`).
    init(storedValue: Double) {
        self.init(timeIntervalSince1970: storedValue)
    }
}
