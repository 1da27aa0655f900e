import Foundation
internal import GRDB
import JuiceBar

/// The juice bar's stock in SQLite. Each operation is one IMMEDIATE write transaction, so
/// concurrent orders, in this process or another, queue on the file's write lock.
public struct SQLiteJuiceBarStore: JuiceBarStore {
    private let database: SQLiteDatabase
    private let now: @Sendable () -> Date

    public init(database: SQLiteDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func menu() async throws -> Menu {
        try await database.pool.read(Self.fetchMenu)
    }

    public func stock() async throws -> StockSnapshot {
        try await database.pool.read(Self.fetchSnapshot)
    }

    public func order(_ juiceID: JuiceID, actor: String, member: Int64?) async throws -> OrderReceipt {
        let time = now()
        return try await database.writer.write { db in
            // The hot path: only the juice's recipe and the counts, through prepared statements.
            let recipe = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT fruitId, amount FROM recipeIngredient WHERE juiceId = ? ORDER BY position"),
                arguments: [juiceID.rawValue]
            ).map { Ingredient(fruit: FruitID($0[0]), amount: $0[1]) }
            // Every juice has at least one ingredient, so no recipe means no such juice.
            guard !recipe.isEmpty else { throw JuiceBarError.unknownJuice(juiceID.rawValue) }
            var stock = try Self.fetchStock(db)
            try stock.deduct(recipe, for: juiceID)
            try db.cachedStatement(sql: "INSERT INTO juiceOrder (juiceId, time, actor, accountId) VALUES (?, ?, ?, ?)")
                .execute(arguments: [juiceID.rawValue, time.storedValue, actor, member])
            let orderID = db.lastInsertedRowID
            for ingredient in recipe {
                try Self.write(count: stock[ingredient.fruit], of: ingredient.fruit, in: db)
                try Self.record(fruit: ingredient.fruit, delta: -ingredient.amount, countAfter: stock[ingredient.fruit],
                                cause: .order, juice: juiceID, orderID: orderID, actor: actor, time: time, in: db)
            }
            let order = Order(id: orderID, juice: juiceID, time: time, actor: actor)
            return OrderReceipt(order: order, stock: StockSnapshot(stock: stock, version: db.lastInsertedRowID))
        }
    }

    public func addFruit(_ fruit: Fruit, count: Int, actor: String) async throws -> Menu {
        try StockLimits.validate(count: count)
        let time = now()
        return try await database.writer.write { db in
            var menu = try Self.fetchMenu(db)
            try menu.validateNew(fruit)
            try Self.insert(fruit, count: count, in: db)
            try Self.record(fruit: fruit.id, delta: count, countAfter: count, cause: .delivery,
                            juice: nil, orderID: nil, actor: actor, time: time, in: db)
            menu.fruits.append(fruit)
            return menu
        }
    }

    public func addJuice(_ juice: Juice) async throws -> Menu {
        try await database.writer.write { db in
            var menu = try Self.fetchMenu(db)
            try menu.validateNew(juice)
            try Self.insert(juice, in: db)
            menu.juices.append(juice)
            return menu
        }
    }

    public func orders(member: Int64?, limit: Int?) async throws -> [Order] {
        try await database.pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM juiceOrder WHERE ?1 IS NULL OR accountId = ?1 ORDER BY id DESC LIMIT ?2",
                arguments: [member, limit ?? -1])
                .map { Order(id: $0["id"], juice: JuiceID($0["juiceId"]), time: $0["time"], actor: $0["actor"]) }
        }
    }

    public func ledger(limit: Int?) async throws -> [LedgerEntry] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM stockLedger ORDER BY id DESC LIMIT ?", arguments: [limit ?? -1])
                .map { row in
                    LedgerEntry(
                        id: row["id"], time: row["time"], fruit: FruitID(row["fruitId"]), delta: row["delta"],
                        countAfter: row["countAfter"], cause: StockChangeCause(rawValue: row["cause"]) ?? .edit,
                        juice: (row["juiceId"] as String?).map { JuiceID($0) }, orderID: row["orderId"],
                        actor: row["actor"])
                }
        }
    }

    public func change(_ fruit: FruitID, by change: StockChange, actor: String) async throws -> StockSnapshot {
        try change.validate()
        let time = now()
        return try await database.writer.write { db in
            _ = try Self.fetchMenu(db).requireFruit(fruit)
            var stock = try Self.fetchStock(db)
            let before = stock[fruit]
            stock[fruit] = try change.apply(to: before)
            try Self.write(count: stock[fruit], of: fruit, in: db)
            try Self.record(fruit: fruit, delta: stock[fruit] - before, countAfter: stock[fruit], cause: change.cause,
                            juice: nil, orderID: nil, actor: actor, time: time, in: db)
            return StockSnapshot(stock: stock, version: db.lastInsertedRowID)
        }
    }
}

// MARK: - Rows

extension SQLiteJuiceBarStore {
    static func fetchMenu(_ db: Database) throws -> Menu {
        let fruits = try Row.fetchAll(db, sql: "SELECT * FROM fruit ORDER BY position").map { row in
            Fruit(id: FruitID(row["id"]), name: LocalizedName(ko: row["nameKo"], en: row["nameEn"]), emoji: row["emoji"])
        }
        var recipes: [JuiceID: [Ingredient]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT * FROM recipeIngredient ORDER BY position") {
            recipes[JuiceID(row["juiceId"]), default: []].append(
                Ingredient(fruit: FruitID(row["fruitId"]), amount: row["amount"]))
        }
        let juices = try Row.fetchAll(db, sql: "SELECT * FROM juice ORDER BY position").map { row in
            let id = JuiceID(row["id"])
            return Juice(id: id, name: LocalizedName(ko: row["nameKo"], en: row["nameEn"]), recipe: recipes[id] ?? [])
        }
        return Menu(fruits: fruits, juices: juices)
    }

    static func fetchStock(_ db: Database) throws -> Stock {
        var stock = Stock()
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, count FROM fruit")) {
            stock[FruitID(row[0])] = row[1]
        }
        return stock
    }

    static func fetchSnapshot(_ db: Database) throws -> StockSnapshot {
        StockSnapshot(stock: try fetchStock(db),
                      version: try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM stockLedger") ?? 0)
    }

    static func write(count: Int, of fruit: FruitID, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE fruit SET count = ? WHERE id = ?").execute(arguments: [count, fruit.rawValue])
    }

    static func insert(_ fruit: Fruit, count: Int, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO fruit (id, nameKo, nameEn, emoji, position, count)
                VALUES (?, ?, ?, ?, (SELECT COUNT(*) FROM fruit), ?)
                """,
            arguments: [fruit.id.rawValue, fruit.name.ko, fruit.name.en, fruit.emoji, count])
    }

    static func insert(_ juice: Juice, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO juice (id, nameKo, nameEn, position) VALUES (?, ?, ?, (SELECT COUNT(*) FROM juice))",
            arguments: [juice.id.rawValue, juice.name.ko, juice.name.en])
        for (position, ingredient) in juice.recipe.enumerated() {
            try db.execute(
                sql: "INSERT INTO recipeIngredient (juiceId, fruitId, amount, position) VALUES (?, ?, ?, ?)",
                arguments: [juice.id.rawValue, ingredient.fruit.rawValue, ingredient.amount, position])
        }
    }

    static func record(
        fruit: FruitID, delta: Int, countAfter: Int, cause: StockChangeCause, juice: JuiceID?, orderID: Int64?,
        actor: String, time: Date, in db: Database
    ) throws {
        try db.cachedStatement(sql: """
            INSERT INTO stockLedger (time, fruitId, delta, countAfter, cause, juiceId, orderId, actor)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [time.storedValue, fruit.rawValue, delta, countAfter, cause.rawValue, juice?.rawValue, orderID, actor])
    }
}
