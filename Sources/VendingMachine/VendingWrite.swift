import Foundation

/// A write to the vending machine, as asked: data, so that an engine can take many at once and
/// decide them all against one reading of the machine.
public enum VendingWrite: Hashable, Sendable {
    case insert(Int)
    case purchase(ProductID)
    case returnChange
    /// `count` items made on `manufactured`.
    case restock(ProductID, count: Int, manufactured: Date)

    /// The product whose oldest fresh item this write may take.
    public var purchasedProduct: ProductID? {
        if case .purchase(let product) = self { product } else { nil }
    }

    /// Whether this write adds items: the writes after it must read the machine again to see them.
    public var addsItems: Bool {
        if case .restock = self { true } else { false }
    }
}

/// A movement of money, as the machine's money ledger records it.
public struct MoneyMovement: Hashable, Sendable {
    public enum Kind: String, Sendable {
        case insert, spend, `return`
    }

    public var kind: Kind
    public var amount: Int
    public var balanceAfter: Int

    public init(kind: Kind, amount: Int, balanceAfter: Int) {
        self.kind = kind
        self.amount = amount
        self.balanceAfter = balanceAfter
    }
}

/// What a vending write decided: the rows to add and change. Ids are the engine's to give,
/// except the item sold, which the book named.
public struct VendingPlan: Hashable, Sendable {
    /// The item sold and what it cost; the sale's id is the engine's to give.
    public struct Sold: Hashable, Sendable {
        public var item: Item
        public var price: Int
    }

    /// Items added, all made on one day.
    public struct Restocked: Hashable, Sendable {
        public var product: Product
        public var count: Int
        public var manufactured: Date
    }

    /// Who asked, and when.
    public var actor: String
    public var time: Date
    /// The machine's money after this write, when it moved.
    public var money: MoneyTotals?
    public var movement: MoneyMovement?
    public var sold: Sold?
    public var restocked: Restocked?
    /// Change handed back, for a return.
    public var change: Change?
    /// Whether the machine changed at all (a version to bump).
    public var changesMachine: Bool { money != nil || sold != nil || restocked != nil }
}

/// The machine as the last commit left it, as much as a batch of writes needs: its money, how
/// many items of each product are in it, and the oldest fresh items of the products being
/// bought. The one place the machine's rules are applied; engines only read the book and store
/// the plans it gives.
public struct VendingBook: Hashable, Sendable {
    public var catalog: [Product]
    public var money: MoneyTotals
    /// Items in the machine per product, fresh or expired.
    public var unsold: [ProductID: Int]
    /// The oldest unsold items of some products, oldest first: at least as many as the batch buys.
    public var oldestItems: [ProductID: [Item]]

    public init(catalog: [Product], money: MoneyTotals, unsold: [ProductID: Int], oldestItems: [ProductID: [Item]]) {
        self.catalog = catalog
        self.money = money
        self.unsold = unsold
        self.oldestItems = oldestItems
    }

    public func product(_ id: ProductID) throws(VendingError) -> Product {
        guard let product = catalog.first(where: { $0.id == id }) else { throw .unknownProduct(id) }
        return product
    }

    /// Decides `write` by `actor` at `now`: changes the book as the write does and returns what to
    /// store; throws the refusal (`VendingError`) and leaves the book as it was.
    public mutating func decide(_ write: VendingWrite, actor: String, at now: Date) throws(VendingError) -> VendingPlan {
        var plan = VendingPlan(actor: actor, time: now)
        switch write {
        case .insert(let amount):
            try money.insert(amount)
            plan.money = money
            plan.movement = MoneyMovement(kind: .insert, amount: amount, balanceAfter: money.balance)
        case .purchase(let productID):
            let product = try product(productID)
            var queue = oldestItems[productID] ?? []
            queue.removeAll { $0.isExpired(at: now) }
            let item = try PurchaseRule.check(product, unsold: unsold[productID] ?? 0, oldestFresh: queue.first,
                                              balance: money.balance)
            try money.spend(product.price)
            queue.removeFirst()
            oldestItems[productID] = queue
            unsold[productID, default: 0] -= 1
            plan.money = money
            plan.movement = MoneyMovement(kind: .spend, amount: product.price, balanceAfter: money.balance)
            plan.sold = VendingPlan.Sold(item: item, price: product.price)
        case .returnChange:
            let change = money.returnChange()
            plan.change = change
            if change.returned > 0 {
                plan.money = money
                plan.movement = MoneyMovement(kind: .return, amount: change.returned, balanceAfter: money.balance)
            }
        case .restock(let productID, let count, let manufactured):
            try Restock.validate(count: count)
            let product = try product(productID)
            unsold[productID, default: 0] += count
            plan.restocked = VendingPlan.Restocked(product: product, count: count, manufactured: manufactured)
        }
        return plan
    }
}

/// One line of the machine's money ledger: a movement as it was stored.
public struct MoneyLine: Hashable, Sendable {
    public var id: Int64
    public var time: Date
    public var movement: MoneyMovement
    public var actor: String

    public init(id: Int64, time: Date, movement: MoneyMovement, actor: String) {
        self.id = id
        self.time = time
        self.movement = movement
        self.actor = actor
    }
}
