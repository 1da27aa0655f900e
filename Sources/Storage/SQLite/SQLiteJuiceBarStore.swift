import Foundation
internal import GRDB
internal import GRDBSQLite
import JuiceBar
import ShopBasics

/// The juice bar's stock in SQLite. Writes waiting at one moment are decided together against
/// one reading of the book and stored in one savepoint of the writer's group commit, so
/// concurrent orders, in this process or another, follow one another on the file's write lock.
public struct SQLiteJuiceBarStore: JuiceBarStore {
    private let database: SQLiteDatabase
    private let now: @Sendable () -> Date
    private let batches: SQLiteBatchedWrites<StockWrite, StockCommit>

    /// Orders are numbered by the shop's time zone as stored, read in the same write, so a change
    /// made by another process is followed from the next batch on.
    public init(database: SQLiteDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
        let menus = AsLastRead(read: Self.fetchMenu)
        batches = SQLiteBatchedWrites(writer: database.writer) { batch, db in
            var keys = database.keys.inTransaction()
            let claimed = try keys.claim(batch, in: db)
            let needs = BookNeeds(claimed.acting, calendar: try database.shopCalendar.value(db))
            let decided = DecidedStockBatch(claimed.acting, on: try Self.fetchBook(db, for: needs, menu: try menus.value(db)))
            let plans = decided.plans
            if plans.contains(where: \.changesMenu) { menus.forget() }
            let stored = try Self.store(plans, in: db)
            return try keys.keep(claimed.finish(decided.answers(stored)), in: db)
        }
    }

    public func menu() async throws -> Menu {
        try await database.pool.read(Self.fetchMenu)
    }

    public func stock() async throws -> StockSnapshot {
        try await database.pool.read(Self.fetchSnapshot)
    }

    public func commit(_ write: StockWrite, actor: String, key: IdempotentWrite?) async throws -> StockCommit {
        try write.validate()
        return try await batches.submit(PendingWrite<StockWrite>(write: write, actor: actor, time: now(), key: key))
    }

    public func orders(member: Int64?, limit: Int?) async throws -> [Order] {
        try await database.pool.read { db in
            // Two statements: one that allowed both would be planned without knowing which, as a
            // scan of every order.
            let rows = if let member {
                try Row.fetchAll(db, sql: Self.memberOrders, arguments: [member, limit ?? -1])
            } else {
                try Row.fetchAll(db, sql: "SELECT * FROM juice_order ORDER BY id DESC LIMIT ?", arguments: [limit ?? -1])
            }
            return try rows.map(Self.order)
        }
    }

    public func orders(in window: ExportWindow) async throws -> [Order] {
        try await database.pool.read { db in try window.rows(of: "juice_order", in: db).map(Self.order) }
    }

    public func ledger(in window: ExportWindow) async throws -> [LedgerEntry] {
        try await database.pool.read { db in try window.rows(of: "stock_ledger", in: db).map(Self.ledgerEntry) }
    }

    public func order(id: Int64) async throws -> Order? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM juice_order WHERE id = ?", arguments: [id]).map(Self.order)
        }
    }

    public func queue() async throws -> [Order] {
        try await database.pool.read { db in
            try Row.fetchAll(db.cachedStatement(sql: Self.activeOrders)).map(Self.order)
        }
    }

    public func averageReadySeconds() async throws -> Double? {
        try await database.pool.read { db in
            try Double.fetchOne(db, sql: Self.averageReady, arguments: [OrderRules.recentOrdersForAverage])
        }
    }

    // The queue's reads, each answered from an index of its own (`SQLiteFileTests` checks the plans).
    static let activeOrders = "SELECT * FROM juice_order WHERE \(isActive) ORDER BY id"
    /// An order in the queue, as `juice_order_active` and the reads that use it say it.
    static let isActive = SQLiteSchema.oneOf("status", OrderStatus.active.map(\.rawValue))
    static let averageReady = """
        SELECT AVG(ready_time - time) FROM (
            SELECT ready_time, time FROM juice_order WHERE pickup AND ready_time IS NOT NULL ORDER BY ready_time DESC LIMIT ?)
        """
    static let memberOrders = "SELECT * FROM juice_order WHERE account_id = ? ORDER BY id DESC LIMIT ?"
    static let lastNumber = "SELECT last_number FROM order_day WHERE day = ?"

    public func ledger(limit: Int?) async throws -> [LedgerEntry] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM stock_ledger ORDER BY id DESC LIMIT ?", arguments: [limit ?? -1])
                .map(Self.ledgerEntry)
        }
    }

    static func ledgerEntry(_ row: Row) -> LedgerEntry {
        LedgerEntry(
            id: row["id"], time: row["time"], fruit: FruitID(row["fruit_id"]), delta: row["delta"],
            countAfter: row["count_after"], cause: StockChangeCause(rawValue: row["cause"]) ?? .edit,
            juice: (row["juice_id"] as String?).map { JuiceID($0) }, orderID: row["order_id"], actor: row["actor"])
    }
}

// MARK: - Rows

extension SQLiteJuiceBarStore {
    static func fetchMenu(_ db: Database) throws -> Menu {
        let fruits = try Row.fetchAll(db.cachedStatement(
            sql: "SELECT id, name_ko, name_en, emoji, reorder_level FROM fruit ORDER BY position"))
            .map { row in Fruit(id: FruitID(row[0]), name: LocalizedName(ko: row[1], en: row[2]), emoji: row[3], level: row[4]) }
        var recipes: [JuiceID: [Ingredient]] = [:]
        for row in try Row.fetchAll(db.cachedStatement(
            sql: "SELECT juice_id, fruit_id, amount FROM recipe_ingredient ORDER BY position")) {
            recipes[JuiceID(row[0]), default: []].append(Ingredient(fruit: FruitID(row[1]), amount: row[2]))
        }
        let juices = try Row.fetchAll(db.cachedStatement(
            sql: "SELECT id, name_ko, name_en, price, option_groups, sold_out, retired FROM juice ORDER BY position"))
            .map { row in
                let id = JuiceID(row["id"])
                return Juice(id: id, name: LocalizedName(ko: row["name_ko"], en: row["name_en"]), recipe: recipes[id] ?? [],
                             price: row["price"], optionGroups: try [OptionGroupID](storedDefinition: row["option_groups"]),
                             soldOut: row["sold_out"], retired: row["retired"])
            }
        let groups = try String.fetchAll(db.cachedStatement(sql: "SELECT definition FROM option_group ORDER BY position"))
            .map { try MenuOptionGroup(storedDefinition: $0) }
        return Menu(fruits: fruits, juices: juices, optionGroups: groups)
    }

    static func fetchBook(_ db: Database, for needs: BookNeeds, menu: Menu) throws -> JuiceBarBook {
        var book = JuiceBarBook(menu: menu, stock: try fetchStock(db), calendar: needs.calendar)
        for day in needs.days {
            book.lastNumbers[day] = try db.integer(lastNumber, day).map(Int.init)
        }
        for id in needs.orders {
            book.orders[id] = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM juice_order WHERE id = ?"), arguments: [id]).map(order)
        }
        return book
    }

    static func order(_ row: Row) throws -> Order {
        let order = Order(
            id: row["id"], juice: JuiceID(row["juice_id"]), time: row["time"], actor: row["actor"],
            number: row["number"], day: row["day"], status: OrderStatus(rawValue: row["status"]) ?? .pickedUp,
            statusTime: row["status_time"], readyTime: row["ready_time"], pickup: row["pickup"], member: row["account_id"])
        return try StoredSale(lines: row["lines"], total: row["total"], vat: row["vat"], payment: row["payment"],
                              refund: row["refund"]).applied(to: order)
    }

    /// Writes a batch's plans: each new fruit or juice and each changed order as it comes, then
    /// the new orders and then the ledger lines, each kind with as few inserts as `MultiRowInsert`
    /// allows, then every changed count once. Ids follow the file's last ones: the batch runs in
    /// the writer's transaction, which holds the file's write lock.
    static func store(_ plans: [StockPlan], in db: Database) throws -> StoredStockPlans {
        var stored: [StockPlan] = []
        stored.reserveCapacity(plans.count)
        var newOrders: [Order] = []
        var lines: [LedgerEntry] = []
        var counts: [FruitID: Int] = [:]
        var lastNumbers: [String: Int] = [:]
        var lastOrderID = try plans.contains { $0.order != nil } ? db.lastID(of: "juice_order") : 0
        var lastLineID = try db.lastID(of: "stock_ledger")
        for var plan in plans {
            if let fruit = plan.newFruit { try insert(fruit, count: plan.counts[fruit.id] ?? 0, in: db) }
            if let juice = plan.newJuice { try insert(juice, in: db) }
            if let juice = plan.changedJuice { try update(juice, in: db) }
            if let group = plan.optionGroup { try put(group, in: db) }
            if let fruit = plan.newLevel {
                try db.execute(sql: "UPDATE fruit SET reorder_level = ? WHERE id = ?", arguments: [fruit.level, fruit.id.rawValue])
            }
            if var order = plan.order {
                lastOrderID += 1
                order.id = lastOrderID
                plan.order = order
                newOrders.append(order)
                lastNumbers[order.day] = order.number
            }
            if let order = plan.changedOrder {
                let sale = try StoredSale(order)
                try db.run("UPDATE juice_order SET status = ?, status_time = ?, ready_time = ?, payment = ?, refund = ? WHERE id = ?",
                           order.status.rawValue, order.statusTime.storedValue, order.readyTime?.storedValue,
                           sale.payment, sale.refund, order.id)
            }
            plan.ledger = plan.ledgerLines(orderID: plan.order?.id).map { line in
                var line = line
                lastLineID += 1
                line.id = lastLineID
                return line
            }
            lines += plan.ledger
            counts.merge(plan.counts) { _, newer in newer }
            stored.append(plan)
        }
        let sales = try newOrders.map(StoredSale.init)
        try db.insert(Array(zip(newOrders, sales)), orderInsert) { sold, row in
            let (order, sale) = sold
            row.bind(order.id, order.juice.rawValue, order.time.storedValue, order.actor, order.member, order.number,
                     order.day, order.status.rawValue, order.statusTime.storedValue, order.readyTime?.storedValue,
                     order.pickup, sale.lines, sale.total, sale.vat, sale.payment, sale.refund)
        }
        try db.insert(lines, ledgerInsert) { line, row in
            row.bind(line.id, line.time.storedValue, line.fruit.rawValue, line.delta, line.countAfter,
                     line.cause.rawValue, line.juice?.rawValue, line.orderID, line.actor)
        }
        for (fruit, count) in counts { try write(count: count, of: fruit, in: db) }
        for (day, number) in lastNumbers {
            try db.run("""
                INSERT INTO order_day (day, last_number) VALUES (?, ?)
                ON CONFLICT (day) DO UPDATE SET last_number = excluded.last_number
                """, day, number)
        }
        return StoredStockPlans(plans: stored, version: lastLineID)
    }

    static let orderInsert = MultiRowInsert(into: "juice_order", columns: [
        "id", "juice_id", "time", "actor", "account_id", "number", "day", "status", "status_time", "ready_time", "pickup",
        "lines", "total", "vat", "payment", "refund"])
    static let ledgerInsert = MultiRowInsert(into: "stock_ledger", columns: [
        "id", "time", "fruit_id", "delta", "count_after", "cause", "juice_id", "order_id", "actor"])

    static func fetchStock(_ db: Database) throws -> Stock {
        var stock = Stock()
        try db.read("SELECT id, count FROM fruit") { row in
            stock[FruitID(String(cString: sqlite3_column_text(row, 0)))] = Int(sqlite3_column_int64(row, 1))
        }
        return stock
    }

    static func fetchSnapshot(_ db: Database) throws -> StockSnapshot {
        StockSnapshot(stock: try fetchStock(db), version: try db.lastID(of: "stock_ledger"))
    }

    static func write(count: Int, of fruit: FruitID, in db: Database) throws {
        try db.run("UPDATE fruit SET count = ? WHERE id = ?", count, fruit.rawValue)
    }

    static func insert(_ fruit: Fruit, count: Int, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO fruit (id, name_ko, name_en, emoji, position, count)
                VALUES (?, ?, ?, ?, (SELECT COUNT(*) FROM fruit), ?)
                """,
            arguments: [fruit.id.rawValue, fruit.name.ko, fruit.name.en, fruit.emoji, count])
    }

    static func insert(_ juice: Juice, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO juice (id, name_ko, name_en, price, option_groups, sold_out, retired, position)
                VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT COUNT(*) FROM juice))
                """,
            arguments: [juice.id.rawValue, juice.name.ko, juice.name.en, juice.price, try juice.optionGroups.storedDefinition(),
                        juice.soldOut, juice.retired])
        try insertRecipe(of: juice, in: db)
    }

    /// Stores a juice as staff changed it, its recipe written again.
    static func update(_ juice: Juice, in db: Database) throws {
        try db.execute(
            sql: """
                UPDATE juice SET name_ko = ?, name_en = ?, price = ?, option_groups = ?, sold_out = ?, retired = ?
                WHERE id = ?
                """,
            arguments: [juice.name.ko, juice.name.en, juice.price, try juice.optionGroups.storedDefinition(), juice.soldOut,
                        juice.retired, juice.id.rawValue])
        try db.execute(sql: "DELETE FROM recipe_ingredient WHERE juice_id = ?", arguments: [juice.id.rawValue])
        try insertRecipe(of: juice, in: db)
    }

    private static func insertRecipe(of juice: Juice, in db: Database) throws {
        for (position, ingredient) in juice.recipe.enumerated() {
            try db.execute(
                sql: "INSERT INTO recipe_ingredient (juice_id, fruit_id, amount, position) VALUES (?, ?, ?, ?)",
                arguments: [juice.id.rawValue, ingredient.fruit.rawValue, ingredient.amount, position])
        }
    }

    /// Adds an option group after the others, or replaces the one with its id where it stands.
    static func put(_ group: MenuOptionGroup, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO option_group (id, position, definition) VALUES (?, (SELECT COUNT(*) FROM option_group), ?)
                ON CONFLICT (id) DO UPDATE SET definition = excluded.definition
                """,
            arguments: [group.id.rawValue, try group.storedDefinition()])
    }
}
