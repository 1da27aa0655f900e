import Foundation
import JuiceBar
import PostgresNIO

/// The juice bar's stock in PostgreSQL, shared by every server. Each stock change is one
/// transaction holding the fruit stock's lock, so no two instances can sell the same last fruit,
/// and the ledger's ids grow in the order changes commit (they are the snapshots' versions).
public struct PostgresJuiceBarStore: JuiceBarStore {
    private let database: PostgresDatabase
    private let now: @Sendable () -> Date

    init(database: PostgresDatabase, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
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

    public func order(_ juiceID: JuiceID, actor: String, member: Int64?) async throws -> OrderReceipt {
        let time = now()
        return try await database.write(.fruitStock) { connection in
            let recipe = try await connection.rows("""
                SELECT fruit_id, amount FROM recipe_ingredient WHERE juice_id = \(juiceID.rawValue) ORDER BY position
                """).map { row in
                let (fruit, amount) = try row.decode((String, Int).self)
                return Ingredient(fruit: FruitID(fruit), amount: amount)
            }
            // Every juice has at least one ingredient, so no recipe means no such juice.
            guard !recipe.isEmpty else { throw JuiceBarError.unknownJuice(juiceID.rawValue) }
            var stock = try await Self.fetchStock(connection)
            try stock.deduct(recipe, for: juiceID)
            let orderID = try await connection.row("""
                INSERT INTO juice_order (juice_id, time, actor, account_id)
                VALUES (\(juiceID.rawValue), \(time.storedValue), \(actor), \(member)) RETURNING id
                """).decode(Int64.self)
            var version: Int64 = 0
            for ingredient in recipe {
                try await Self.write(count: stock[ingredient.fruit], of: ingredient.fruit, in: connection)
                version = try await Self.record(
                    LedgerEntry(id: 0, time: time, fruit: ingredient.fruit, delta: -ingredient.amount,
                                countAfter: stock[ingredient.fruit], cause: .order, juice: juiceID, orderID: orderID,
                                actor: actor),
                    in: connection)
            }
            let order = Order(id: orderID, juice: juiceID, time: time, actor: actor)
            return OrderReceipt(order: order, stock: StockSnapshot(stock: stock, version: version))
        }
    }

    public func addFruit(_ fruit: Fruit, count: Int, actor: String) async throws -> Menu {
        try StockLimits.validate(count: count)
        let time = now()
        return try await database.write(.fruitStock) { connection in
            var menu = try await Self.fetchMenu(connection)
            try menu.validateNew(fruit)
            try await Self.insert(fruit, position: menu.fruits.count, count: count, actor: actor, time: time, in: connection)
            menu.fruits.append(fruit)
            return menu
        }
    }

    public func addJuice(_ juice: Juice) async throws -> Menu {
        try await database.write(.fruitStock) { connection in
            var menu = try await Self.fetchMenu(connection)
            try menu.validateNew(juice)
            try await Self.insert(juice, position: menu.juices.count, in: connection)
            menu.juices.append(juice)
            return menu
        }
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

    public func change(_ fruit: FruitID, by change: StockChange, actor: String) async throws -> StockSnapshot {
        try change.validate()
        let time = now()
        return try await database.write(.fruitStock) { connection in
            var stock = try await Self.fetchStock(connection)
            guard let before = stock.counts[fruit] else { throw JuiceBarError.unknownFruit(fruit.rawValue) }
            stock[fruit] = try change.apply(to: before)
            try await Self.write(count: stock[fruit], of: fruit, in: connection)
            let version = try await Self.record(
                LedgerEntry(id: 0, time: time, fruit: fruit, delta: stock[fruit] - before, countAfter: stock[fruit],
                            cause: change.cause, juice: nil, orderID: nil, actor: actor),
                in: connection)
            return StockSnapshot(stock: stock, version: version)
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

    static func fetchStock(_ connection: PostgresConnection) async throws -> Stock {
        var stock = Stock()
        for row in try await connection.rows("SELECT id, count FROM fruit") {
            let (id, count) = try row.decode((String, Int).self)
            stock[FruitID(id)] = count
        }
        return stock
    }

    static func write(count: Int, of fruit: FruitID, in connection: PostgresConnection) async throws {
        try await connection.run("UPDATE fruit SET count = \(count) WHERE id = \(fruit.rawValue)")
    }

    /// A new fruit and the delivery that brought its first count.
    static func insert(
        _ fruit: Fruit, position: Int, count: Int, actor: String, time: Date, in connection: PostgresConnection
    ) async throws {
        try await connection.run("""
            INSERT INTO fruit (id, name_ko, name_en, emoji, position, count)
            VALUES (\(fruit.id.rawValue), \(fruit.name.ko), \(fruit.name.en), \(fruit.emoji), \(position), \(count))
            """)
        _ = try await record(
            LedgerEntry(id: 0, time: time, fruit: fruit.id, delta: count, countAfter: count, cause: .delivery,
                        juice: nil, orderID: nil, actor: actor),
            in: connection)
    }

    static func insert(_ juice: Juice, position: Int, in connection: PostgresConnection) async throws {
        try await connection.run("""
            INSERT INTO juice (id, name_ko, name_en, position)
            VALUES (\(juice.id.rawValue), \(juice.name.ko), \(juice.name.en), \(position))
            """)
        for (position, ingredient) in juice.recipe.enumerated() {
            try await connection.run("""
                INSERT INTO recipe_ingredient (juice_id, fruit_id, amount, position)
                VALUES (\(juice.id.rawValue), \(ingredient.fruit.rawValue), \(ingredient.amount), \(position))
                """)
        }
    }

    /// Writes a ledger entry (its `id` is given by the database) and returns the id it got.
    static func record(_ entry: LedgerEntry, in connection: PostgresConnection) async throws -> Int64 {
        try await connection.row("""
            INSERT INTO stock_ledger (time, fruit_id, delta, count_after, cause, juice_id, order_id, actor)
            VALUES (\(entry.time.storedValue), \(entry.fruit.rawValue), \(entry.delta), \(entry.countAfter),
                    \(entry.cause.rawValue), \(entry.juice?.rawValue), \(entry.orderID), \(entry.actor))
            RETURNING id
            """).decode(Int64.self)
    }
}

extension Date {
    /// A moment as the shop stores it (see `storedValue`).
    init(storedValue: Double) {
        self.init(timeIntervalSince1970: storedValue)
    }
}
