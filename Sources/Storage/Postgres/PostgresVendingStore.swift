import Foundation
import PostgresNIO
import Synchronization
import VendingMachine

/// The vending machine in PostgreSQL, shared by every server. The writes waiting in this server at
/// one moment are decided together against one reading of the machine and stored in one
/// transaction holding the machine's lock, in a few multi-row statements, so two instances never
/// spend the same balance or sell the same item; the money row's CHECK keeps
/// inserted = spent + returned + balance.
public struct PostgresVendingStore: VendingStore {
    private let database: PostgresDatabase
    /// The products' definitions, read once: migrations fix them.
    private let catalog: ProductCache
    private let batcher: Batcher<PendingWrite<VendingWrite>, VendingCommit>

    init(database: PostgresDatabase) {
        self.database = database
        let catalog = ProductCache()
        self.catalog = catalog
        batcher = Batcher { batch in
            try await database.write(.vendingMachine) { connection, lock in
                let claimed = try await PostgresIdempotencyStore.claim(batch.requests, in: connection)
                var decided: [(DecidedVendingBatch, saleIDs: [Int64?])] = []
                for segment in claimed.acting.segments {
                    let segmentDecided = DecidedVendingBatch(
                        segment, on: try await Self.fetchBook(connection, lock, catalog, for: segment))
                    decided.append((segmentDecided, try await Self.store(segmentDecided.plans, in: connection)))
                }
                let state = try await Self.fetchState(connection, catalog, at: batch.requests.last!.time)
                let changed = decided.contains { $0.0.plans.contains(where: \.changesMachine) }
                let acted = decided.flatMap { $0.0.answers(saleIDs: $0.saleIDs, state: state) }
                let finished = try await PostgresIdempotencyStore.keep(claimed.finish(acted), in: connection)
                return (finished, changed || finished.keepsAnswers)
            }.committed()
        }
    }

    /// The products, read once: they change only with a migration.
    final class ProductCache: Sendable {
        private let products = Mutex<[Product]?>(nil)

        func products(_ connection: PostgresConnection) async throws -> [Product] {
            if let known = products.withLock({ $0 }) { return known }
            let loaded = try await connection.rows("SELECT definition FROM vending_product ORDER BY position").map {
                try Product(storedDefinition: try $0.decode(String.self))
            }
            products.withLock { $0 = loaded }
            return loaded
        }

        func product(_ id: ProductID, _ connection: PostgresConnection) async throws -> Product {
            guard let product = try await products(connection).first(where: { $0.id == id }) else {
                throw VendingError.unknownProduct(id)
            }
            return product
        }
    }

    public func state(at now: Date) async throws -> VendingState {
        try await database.read { connection in try await Self.fetchState(connection, catalog, at: now) }
    }

    public func commit(_ write: VendingWrite, actor: String, at now: Date, key: IdempotentWrite?) async throws -> VendingCommit {
        try await batcher.submit(PendingWrite<VendingWrite>(write: write, actor: actor, time: now, key: key))
    }

    public func history(limit: Int?) async throws -> [Sale] {
        try await database.rows("""
            SELECT \(unescaped: Self.saleColumns) FROM vending_sale ORDER BY id DESC LIMIT \(limit)
            """).map(Self.sale)
    }

    public func sales(in window: ExportWindow) async throws -> [Sale] {
        try await window.rows(of: "vending_sale", columns: Self.saleColumns, in: database).map(Self.sale)
    }

    public func moneyLines(in window: ExportWindow) async throws -> [MoneyLine] {
        try await window.rows(of: "vending_money_ledger", columns: "id, time, kind, amount, balance_after, actor",
                              in: database).map { row in
            let cells = row.makeRandomAccess()
            return MoneyLine(
                id: try cells.decode("id"), time: Date(storedValue: try cells.decode("time")),
                movement: MoneyMovement(kind: MoneyMovement.Kind(rawValue: try cells.decode("kind"))!,
                                        amount: try cells.decode("amount"), balanceAfter: try cells.decode("balance_after")),
                actor: try cells.decode("actor"))
        }
    }

    /// What every read of sales selects (`sale(_:)` reads it).
    static let saleColumns = "id, product_id, price, time, item_id"

    static func sale(_ row: PostgresRow) throws -> Sale {
        let cells = row.makeRandomAccess()
        return Sale(id: try cells.decode("id"), product: try cells.decode("product_id"), price: try cells.decode("price"),
                    time: Date(storedValue: try cells.decode("time")), itemID: try cells.decode("item_id"))
    }

    public func expiredItems(at now: Date) async throws -> [Item] {
        try await database.rows("""
            SELECT \(unescaped: Self.itemColumns.list) FROM vending_item
            WHERE sale_id IS NULL AND expires <= \(now.storedValue) ORDER BY expires, id
            """).map(Self.item)
    }

    public func sales() async throws -> [ProductSales] {
        try await database.rows("""
            SELECT p.id, count(s.id), coalesce(sum(s.price), 0)
            FROM vending_product p LEFT JOIN vending_sale s ON s.product_id = p.id
            GROUP BY p.id ORDER BY min(p.position)
            """).map { row in
            let (product, units, won) = try row.decode((String, Int, Int).self)
            return ProductSales(product: product, units: units, won: won)
        }
    }

    /// The machine now: unsold counts are kept per product, and only expired items are counted.
    static func fetchState(_ connection: PostgresConnection, _ catalog: ProductCache, at now: Date) async throws -> VendingState {
        var expired: [ProductID: Int] = [:]
        for row in try await connection.rows("""
            SELECT product_id, count(*) FROM vending_item
            WHERE sale_id IS NULL AND expires <= \(now.storedValue) GROUP BY product_id
            """) {
            let (product, count) = try row.decode((String, Int).self)
            expired[product] = count
        }
        var unsold: [ProductID: Int] = [:]
        for row in try await connection.rows("SELECT id, unsold FROM vending_product") {
            let (product, count) = try row.decode((String, Int).self)
            unsold[product] = count
        }
        let products = try await catalog.products(connection).map { product in
            let expiredCount = expired[product.id] ?? 0
            return ProductStock(product: product, stock: (unsold[product.id] ?? 0) - expiredCount, expired: expiredCount)
        }
        let (balance, inserted, spent, returned, version, nextExpiry) = try await connection.row("""
            SELECT balance, inserted, spent, returned, version,
                   (SELECT min(expires) FROM vending_item WHERE sale_id IS NULL AND expires > \(now.storedValue))
            FROM vending_money WHERE id = 1
            """).decode((Int, Int, Int, Int, Int64, Double?).self)
        return VendingState(
            products: products, money: MoneyTotals(balance: balance, inserted: inserted, spent: spent, returned: returned),
            version: version, nextExpiry: nextExpiry.map(Date.init(storedValue:)))
    }
}

// MARK: - Rows

extension PostgresVendingStore {
    /// The kinds of row `vending_book` gives (`PostgresFunction.vendingBook`), told by their `kind`.
    enum BookRow: Int16 {
        /// A product's `unsold` count (`product_id`), and the money.
        case product = 0
        /// One of the oldest fresh items of a product wanted (`item(_:)`).
        case item = 1
    }

    /// Takes the machine's lock and reads the money, the unsold counts, and the oldest fresh items
    /// the segment may buy, in one statement (`PostgresFunction.vendingBook`).
    static func fetchBook(
        _ connection: PostgresConnection, _ lock: PostgresDatabase.PartLock, _ catalog: ProductCache,
        for segment: ArraySlice<PendingWrite<VendingWrite>>
    ) async throws -> VendingBook {
        // The catalogue is read before the lock (once per process): migrations alone change it.
        let products = try await catalog.products(connection)
        let wanted = segment.itemsWanted(of: products)
        var unsold: [ProductID: Int] = [:]
        var money = MoneyTotals()
        var oldestItems: [ProductID: [Item]] = [:]
        let rows = try await connection.rows("""
            SELECT * FROM vending_book(\(lock.key), \(lock.channel), \(lock.instance),
                                       \(Array(wanted.counts.keys)), \(Array(wanted.counts.values)), \(wanted.freshAt.storedValue))
            """)
        lock.taken()
        for row in rows {
            let cells = row.makeRandomAccess()
            switch BookRow(rawValue: try cells.decode("kind")) {
            case .product:
                unsold[try cells.decode("product_id")] = try cells.decode("unsold")
                money = MoneyTotals(balance: try cells.decode("balance"), inserted: try cells.decode("inserted"),
                                    spent: try cells.decode("spent"), returned: try cells.decode("returned"))
            case .item:
                let item = try item(cells)
                oldestItems[item.product, default: []].append(item)
            case nil:
                throw PostgresStoreError.unexpectedRow
            }
        }
        return VendingBook(catalog: products, money: money, unsold: unsold, oldestItems: oldestItems)
    }

    /// Writes a segment's plans in one statement whatever its size (restocks, rare, go first, one
    /// by one): the sales, the items and counts they took, the money movements, and the money
    /// with the version. Returns the id of the sale each plan made, if any.
    static func store(_ plans: [VendingPlan], in connection: PostgresConnection) async throws -> [Int64?] {
        guard plans.contains(where: \.changesMachine) else { return plans.map { _ in nil } }
        for restocked in plans.compactMap(\.restocked) {
            try await addItems(of: restocked.product, count: restocked.count, manufactured: restocked.manufactured,
                               in: connection)
        }
        let selling = plans.filter { $0.sold != nil }
        let sold = selling.map { $0.sold! }
        let moved = plans.filter { $0.movement != nil }
        let movements = moved.map { $0.movement! }
        let money = plans.last(where: { $0.money != nil })?.money
        var saleByItem: [Int64: Int64] = [:]
        for row in try await connection.rows("""
            WITH sold AS (
                INSERT INTO vending_sale (product_id, price, time, item_id, actor)
                SELECT product, price, time, item, actor
                FROM unnest(\(sold.map(\.item.product)), \(sold.map(\.price)), \(selling.map(\.time.storedValue)),
                            \(sold.map(\.item.id)), \(selling.map(\.actor)))
                     WITH ORDINALITY AS s(product, price, time, item, actor, n)
                ORDER BY n
                RETURNING id, item_id, product_id
            ), taken AS (
                UPDATE vending_item SET sale_id = sold.id FROM sold WHERE vending_item.id = sold.item_id
                RETURNING vending_item.id
            ), emptied AS (
                UPDATE vending_product SET unsold = unsold - s.units
                FROM (SELECT product_id, count(*) AS units FROM sold GROUP BY product_id) s
                WHERE vending_product.id = s.product_id
                RETURNING vending_product.id
            ), moved AS (
                INSERT INTO vending_money_ledger (time, kind, amount, balance_after, actor)
                SELECT time, kind, amount, balance_after, actor
                FROM unnest(\(moved.map(\.time.storedValue)), \(movements.map(\.kind.rawValue)), \(movements.map(\.amount)),
                            \(movements.map(\.balanceAfter)), \(moved.map(\.actor)))
                     WITH ORDINALITY AS m(time, kind, amount, balance_after, actor, n)
                ORDER BY n
                RETURNING id
            ), counted AS (
                UPDATE vending_money SET balance = coalesce(\(money?.balance), balance),
                    inserted = coalesce(\(money?.inserted), inserted), spent = coalesce(\(money?.spent), spent),
                    returned = coalesce(\(money?.returned), returned), version = version + \(plans.filter(\.changesMachine).count)
                WHERE id = 1
                RETURNING id
            )
            SELECT id, item_id FROM sold
            """) {
            let (sale, item) = try row.decode((Int64, Int64).self)
            saleByItem[item] = sale
        }
        return plans.map { plan in plan.sold.flatMap { saleByItem[$0.item.id] } }
    }

    static func addItems(of product: Product, count: Int, manufactured: Date, in connection: PostgresConnection) async throws {
        let expires = product.expiry(ofItemMadeOn: manufactured)
        try await connection.run("""
            INSERT INTO vending_item (product_id, manufactured, expires)
            SELECT \(product.id), \(manufactured.storedValue), \(expires.storedValue) FROM generate_series(1, \(count))
            """)
        try await connection.run("UPDATE vending_product SET unsold = unsold + \(count) WHERE id = \(product.id)")
    }

    /// What every read of items selects, the machine's book included (`item(_:)` reads it).
    static let itemColumns: PostgresColumns = [
        "id": "bigint", "product_id": "text", "manufactured": "double precision", "expires": "double precision",
    ]

    static func item(_ row: PostgresRow) throws -> Item {
        try item(row.makeRandomAccess())
    }

    static func item(_ cells: PostgresRandomAccessRow) throws -> Item {
        Item(id: try cells.decode("id"), product: try cells.decode("product_id"),
             manufactured: Date(storedValue: try cells.decode("manufactured")), expires: Date(storedValue: try cells.decode("expires")))
    }
}
