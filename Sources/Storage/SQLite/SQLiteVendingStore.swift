import Foundation
internal import GRDB
import Synchronization
import VendingMachine

/// The vending machine in SQLite. Writes waiting at one moment are decided together against one
/// reading of the machine and stored in one savepoint of the writer's group commit; the money
/// row's CHECK makes inserted = spent + returned + balance a rule of the file itself.
public struct SQLiteVendingStore: VendingStore {
    private let database: SQLiteDatabase
    /// The products' definitions, read once: they are fixed by the migrations, and decoding them
    /// on every purchase would cost more than the purchase.
    private let catalog: ProductCache
    private let batches: SQLiteBatchedWrites<VendingWrite, VendingCommit>

    public init(database: SQLiteDatabase) {
        self.database = database
        let catalog = ProductCache()
        self.catalog = catalog
        batches = SQLiteBatchedWrites(writer: database.writer) { batch, db in
            var keys = database.keys.inTransaction()
            let claimed = try keys.claim(batch, in: db)
            var decided: [(DecidedVendingBatch, saleIDs: [Int64?])] = []
            for segment in claimed.acting.segments {
                let segmentDecided = DecidedVendingBatch(segment, on: try Self.fetchBook(db, catalog, for: segment))
                decided.append((segmentDecided, try Self.store(segmentDecided.plans, in: db)))
            }
            let state = try Self.fetchState(db, products: catalog.products(db), at: batch.last!.time)
            let acted = decided.flatMap { $0.0.answers(saleIDs: $0.saleIDs, state: state) }
            return try keys.keep(claimed.finish(acted), in: db)
        }
    }

    /// The products, read once: they change only with a migration.
    final class ProductCache: Sendable {
        private let products = Mutex<[Product]?>(nil)

        func products(_ db: Database) throws -> [Product] {
            if let known = products.withLock({ $0 }) { return known }
            let loaded = try String.fetchAll(db, sql: "SELECT definition FROM vending_product ORDER BY position")
                .map(Product.init(storedDefinition:))
            products.withLock { $0 = loaded }
            return loaded
        }

        func product(_ id: ProductID, _ db: Database) throws -> Product {
            guard let product = try products(db).first(where: { $0.id == id }) else { throw VendingError.unknownProduct(id) }
            return product
        }
    }

    public func state(at now: Date) async throws -> VendingState {
        try await database.pool.read { db in try Self.fetchState(db, products: catalog.products(db), at: now) }
    }

    public func commit(_ write: VendingWrite, actor: String, at now: Date, key: IdempotentWrite?) async throws -> VendingCommit {
        try await batches.submit(PendingWrite<VendingWrite>(write: write, actor: actor, time: now, key: key))
    }

    public func history(limit: Int?) async throws -> [Sale] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM vending_sale ORDER BY id DESC LIMIT ?", arguments: [limit ?? -1])
                .map(Self.sale)
        }
    }

    public func sales(in window: ExportWindow) async throws -> [Sale] {
        try await database.pool.read { db in try window.rows(of: "vending_sale", in: db).map(Self.sale) }
    }

    public func moneyLines(in window: ExportWindow) async throws -> [MoneyLine] {
        try await database.pool.read { db in
            try window.rows(of: "vending_money_ledger", in: db).map { row in
                MoneyLine(id: row["id"], time: row["time"],
                          movement: MoneyMovement(kind: MoneyMovement.Kind(rawValue: row["kind"])!, amount: row["amount"],
                                                  balanceAfter: row["balance_after"]),
                          actor: row["actor"])
            }
        }
    }

    static func sale(_ row: Row) -> Sale {
        Sale(id: row["id"], product: row["product_id"], price: row["price"], time: row["time"], itemID: row["item_id"])
    }

    public func expiredItems(at now: Date) async throws -> [Item] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM vending_item WHERE sale_id IS NULL AND expires <= ? ORDER BY expires, id",
                             arguments: [now.storedValue]).map(Self.item)
        }
    }

    public func sales() async throws -> [ProductSales] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT p.id, COUNT(s.id) AS units, COALESCE(SUM(s.price), 0) AS won
                FROM vending_product p LEFT JOIN vending_sale s ON s.product_id = p.id
                GROUP BY p.id ORDER BY p.position
                """).map { ProductSales(product: $0["id"], units: $0["units"], won: $0["won"]) }
        }
    }
}

// MARK: - Rows

extension SQLiteVendingStore {
    static func fetchMoney(_ db: Database) throws -> MoneyTotals {
        let row = try Row.fetchOne(db, sql: "SELECT * FROM vending_money WHERE id = 1")!
        return MoneyTotals(balance: row["balance"], inserted: row["inserted"], spent: row["spent"], returned: row["returned"])
    }

    /// The money, the unsold counts, and the oldest fresh items the segment may buy.
    static func fetchBook(_ db: Database, _ catalog: ProductCache, for segment: ArraySlice<PendingWrite<VendingWrite>>) throws -> VendingBook {
        var unsold: [ProductID: Int] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, unsold FROM vending_product")) {
            unsold[row[0]] = row[1]
        }
        let products = try catalog.products(db)
        let wanted = segment.itemsWanted(of: products)
        var oldestItems: [ProductID: [Item]] = [:]
        for (product, count) in wanted.counts {
            oldestItems[product] = try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT * FROM vending_item WHERE product_id = ? AND sale_id IS NULL AND expires > ?
                    ORDER BY manufactured, id LIMIT ?
                    """),
                arguments: [product, wanted.freshAt.storedValue, count]
            ).map(item)
        }
        return VendingBook(catalog: products, money: try fetchMoney(db), unsold: unsold, oldestItems: oldestItems)
    }

    /// Writes a segment's plans; returns the id of the sale each made, if any.
    static func store(_ plans: [VendingPlan], in db: Database) throws -> [Int64?] {
        let saleIDs = try plans.map { plan -> Int64? in
            var saleID: Int64?
            if let sold = plan.sold {
                try db.cachedStatement(sql: "INSERT INTO vending_sale (product_id, price, time, item_id, actor) VALUES (?, ?, ?, ?, ?)")
                    .execute(arguments: [sold.item.product, sold.price, plan.time.storedValue, sold.item.id, plan.actor])
                saleID = db.lastInsertedRowID
                try db.cachedStatement(sql: "UPDATE vending_item SET sale_id = ? WHERE id = ?").execute(arguments: [saleID, sold.item.id])
                try db.cachedStatement(sql: "UPDATE vending_product SET unsold = unsold - 1 WHERE id = ?")
                    .execute(arguments: [sold.item.product])
            }
            if let restocked = plan.restocked {
                try addItems(of: restocked.product, count: restocked.count, manufactured: restocked.manufactured, in: db)
            }
            if let movement = plan.movement {
                try db.cachedStatement(sql: """
                    INSERT INTO vending_money_ledger (time, kind, amount, balance_after, actor) VALUES (?, ?, ?, ?, ?)
                    """).execute(arguments: [plan.time.storedValue, movement.kind.rawValue, movement.amount,
                                             movement.balanceAfter, plan.actor])
            }
            return saleID
        }
        let changes = plans.filter(\.changesMachine).count
        let money = plans.last(where: { $0.money != nil })?.money
        if let money {
            try db.cachedStatement(sql: """
                UPDATE vending_money SET balance = ?, inserted = ?, spent = ?, returned = ?, version = version + ? WHERE id = 1
                """).execute(arguments: [money.balance, money.inserted, money.spent, money.returned, changes])
        } else if changes > 0 {
            try db.cachedStatement(sql: "UPDATE vending_money SET version = version + ? WHERE id = 1").execute(arguments: [changes])
        }
        return saleIDs
    }

    /// The machine now. Cheap on purpose, since every write returns it: unsold counts are kept
    /// per product, and only expired items (few) are counted, through their own index.
    static func fetchState(_ db: Database, products catalog: [Product], at now: Date) throws -> VendingState {
        // Counted here rather than with GROUP BY, which would lead SQLite to scan every unsold item.
        var expired: [ProductID: Int] = [:]
        for product in try String.fetchAll(
            db.cachedStatement(sql: "SELECT product_id FROM vending_item WHERE sale_id IS NULL AND expires <= ?"),
            arguments: [now.storedValue]) {
            expired[product, default: 0] += 1
        }
        var unsold: [ProductID: Int] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, unsold FROM vending_product")) {
            unsold[row[0]] = row[1]
        }
        let products = catalog.map { product in
            let expiredCount = expired[product.id] ?? 0
            return ProductStock(product: product, stock: (unsold[product.id] ?? 0) - expiredCount, expired: expiredCount)
        }
        let version = try Int64.fetchOne(db, sql: "SELECT version FROM vending_money WHERE id = 1") ?? 0
        let nextExpiry = try Date.fetchOne(
            db, sql: "SELECT MIN(expires) FROM vending_item WHERE sale_id IS NULL AND expires > ?", arguments: [now.storedValue])
        return VendingState(products: products, money: try fetchMoney(db), version: version, nextExpiry: nextExpiry)
    }

    static func addItems(of product: Product, count: Int, manufactured: Date, in db: Database) throws {
        let expires = product.expiry(ofItemMadeOn: manufactured)
        let insert = try db.cachedStatement(sql: "INSERT INTO vending_item (product_id, manufactured, expires) VALUES (?, ?, ?)")
        for _ in 0..<count {
            try insert.execute(arguments: [product.id, manufactured.storedValue, expires.storedValue])
        }
        try db.execute(sql: "UPDATE vending_product SET unsold = unsold + ? WHERE id = ?", arguments: [count, product.id])
    }

    static func item(_ row: Row) -> Item {
        Item(id: row["id"], product: row["product_id"], manufactured: row["manufactured"], expires: row["expires"])
    }
}
