import Foundation
import PostgresNIO
import Synchronization
import VendingMachine

/// The vending machine in PostgreSQL, shared by every server. Each operation is one transaction
/// holding the machine's lock, so two instances never spend the same balance or sell the same
/// item; the money row's CHECK keeps inserted = spent + returned + balance.
public struct PostgresVendingStore: VendingStore {
    private let database: PostgresDatabase
    /// The products' definitions, read once: migrations fix them.
    private let catalog = Catalogue()

    init(database: PostgresDatabase) {
        self.database = database
    }

    private final class Catalogue: Sendable {
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
        try await database.read { connection in try await fetchState(connection, at: now) }
    }

    public func insert(_ amount: Int, actor: String, at now: Date) async throws -> VendingState {
        try await database.write(.vendingMachine) { connection in
            var money = try await Self.fetchMoney(connection)
            try money.insert(amount)
            try await Self.save(money, movement: ("insert", amount), actor: actor, time: now, in: connection)
            return try await fetchState(connection, at: now)
        }
    }

    public func purchase(_ productID: ProductID, actor: String, at now: Date) async throws -> PurchaseReceipt {
        try await database.write(.vendingMachine) { connection in
            let product = try await catalog.product(productID, connection)
            let unsold = try await connection.row("SELECT unsold FROM vending_product WHERE id = \(productID)")
                .decode(Int.self)
            let oldestFresh = try await connection.rows("""
                SELECT id, product_id, manufactured, expires FROM vending_item
                WHERE product_id = \(productID) AND sale_id IS NULL AND expires > \(now.storedValue)
                ORDER BY manufactured, id LIMIT 1
                """).first.map(Self.item)
            var money = try await Self.fetchMoney(connection)
            let item = try PurchaseRule.check(product, unsold: unsold, oldestFresh: oldestFresh, balance: money.balance)
            try money.spend(product.price)
            let saleID = try await connection.row("""
                INSERT INTO vending_sale (product_id, price, time, item_id, actor)
                VALUES (\(productID), \(product.price), \(now.storedValue), \(item.id), \(actor)) RETURNING id
                """).decode(Int64.self)
            let sale = Sale(id: saleID, product: productID, price: product.price, time: now, itemID: item.id)
            try await connection.run("UPDATE vending_item SET sale_id = \(saleID) WHERE id = \(item.id)")
            try await connection.run("UPDATE vending_product SET unsold = unsold - 1 WHERE id = \(productID)")
            try await Self.save(money, movement: ("spend", product.price), actor: actor, time: now, in: connection)
            return PurchaseReceipt(sale: sale, item: item, description: product.describe(item),
                                   state: try await fetchState(connection, at: now))
        }
    }

    public func returnChange(actor: String, at now: Date) async throws -> ChangeReceipt {
        try await database.write(.vendingMachine) { connection in
            var money = try await Self.fetchMoney(connection)
            let change = money.returnChange()
            if change.returned > 0 {
                try await Self.save(money, movement: ("return", change.returned), actor: actor, time: now, in: connection)
            }
            return ChangeReceipt(change: change, state: try await fetchState(connection, at: now))
        }
    }

    public func restock(_ productID: ProductID, count: Int, manufactured: Date, actor: String, at now: Date) async throws -> VendingState {
        try Restock.validate(count: count)
        return try await database.write(.vendingMachine) { connection in
            let product = try await catalog.product(productID, connection)
            try await Self.addItems(of: product, count: count, manufactured: manufactured, in: connection)
            try await connection.run("UPDATE vending_money SET version = version + 1")
            return try await fetchState(connection, at: now)
        }
    }

    public func history(limit: Int?) async throws -> [Sale] {
        try await database.rows("""
            SELECT id, product_id, price, time, item_id FROM vending_sale ORDER BY id DESC LIMIT \(limit)
            """).map { row in
            let (id, product, price, time, itemID) = try row.decode((Int64, String, Int, Double, Int64).self)
            return Sale(id: id, product: product, price: price, time: Date(storedValue: time), itemID: itemID)
        }
    }

    public func expiredItems(at now: Date) async throws -> [Item] {
        try await database.rows("""
            SELECT id, product_id, manufactured, expires FROM vending_item
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
    private func fetchState(_ connection: PostgresConnection, at now: Date) async throws -> VendingState {
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
    static func fetchMoney(_ connection: PostgresConnection) async throws -> MoneyTotals {
        let (balance, inserted, spent, returned) = try await connection.row(
            "SELECT balance, inserted, spent, returned FROM vending_money WHERE id = 1"
        ).decode((Int, Int, Int, Int).self)
        return MoneyTotals(balance: balance, inserted: inserted, spent: spent, returned: returned)
    }

    static func save(
        _ money: MoneyTotals, movement: (kind: String, amount: Int), actor: String, time: Date, in connection: PostgresConnection
    ) async throws {
        try await connection.run("""
            UPDATE vending_money SET balance = \(money.balance), inserted = \(money.inserted), spent = \(money.spent),
                returned = \(money.returned), version = version + 1
            WHERE id = 1
            """)
        try await connection.run("""
            INSERT INTO vending_money_ledger (time, kind, amount, balance_after, actor)
            VALUES (\(time.storedValue), \(movement.kind), \(movement.amount), \(money.balance), \(actor))
            """)
    }

    static func addItems(of product: Product, count: Int, manufactured: Date, in connection: PostgresConnection) async throws {
        let expires = product.expiry(ofItemMadeOn: manufactured)
        try await connection.run("""
            INSERT INTO vending_item (product_id, manufactured, expires)
            SELECT \(product.id), \(manufactured.storedValue), \(expires.storedValue) FROM generate_series(1, \(count))
            """)
        try await connection.run("UPDATE vending_product SET unsold = unsold + \(count) WHERE id = \(product.id)")
    }

    static func item(_ row: PostgresRow) throws -> Item {
        let (id, product, manufactured, expires) = try row.decode((Int64, String, Double, Double).self)
        return Item(id: id, product: product, manufactured: Date(storedValue: manufactured),
                    expires: Date(storedValue: expires))
    }
}
