import Foundation
import JuiceBar
import ShopBasics
import Storage

// The juice bar's answers, as the JSON API sends them and the CLI's `--json` prints them.

/// The menu: every fruit, and each juice on sale with its price, its option groups written out,
/// 품절, and how many the stock can make now (`GET /api/menu`).
public struct MenuAnswer: Encodable, Sendable {
    public struct Item: Encodable, Sendable {
        public let id: JuiceID
        public let name: LocalizedName
        public let recipe: [Ingredient]
        public let price: Int
        public let soldOut: Bool
        public let optionGroups: [MenuOptionGroup]
        public let makeable: Int

        public init(_ juice: Juice, in menu: Menu, stock: Stock) {
            id = juice.id
            name = juice.name
            recipe = juice.recipe
            price = juice.price
            soldOut = juice.soldOut
            optionGroups = juice.optionGroups.compactMap(menu.optionGroup)
            makeable = juice.soldOut ? 0 : stock.makeableCount(of: juice)
        }
    }

    public let fruits: [Fruit]
    public let juices: [Item]

    public init(menu: Menu, stock: Stock) {
        fruits = menu.fruits
        juices = menu.onSale.map { Item($0, in: menu, stock: stock) }
    }
}

/// An order just made and the stock it left (`POST /api/orders`).
public struct OrderAnswer: Encodable, Sendable {
    public let order: Order
    public let stock: Stock
    public let version: Int64

    /// What `apiEncoder` would write, written directly (see `JSONText`).
    public var json: [UInt8] {
        var text = JSONText()
        text.beginObject()
        text.key("order")
        text.beginObject()
        text.key("actor"); text.string(order.actor)
        text.key("day"); text.string(order.day)
        text.key("id"); text.integer(order.id)
        text.key("juice"); text.string(order.juice.rawValue)
        text.key("number"); text.integer(order.number)
        text.key("pickup"); text.bool(order.pickup)
        if let readyTime = order.readyTime { text.key("readyTime"); text.date(readyTime) }
        text.key("status"); text.string(order.status.rawValue)
        text.key("statusTime"); text.date(order.statusTime)
        text.key("time"); text.date(order.time)
        text.key("lines"); text.lines(order.lines)
        text.key("total"); text.integer(order.total)
        text.key("vat"); text.integer(order.vat)
        text.key("payment"); text.payment(order.payment)
        if let refund = order.refund { text.key("refund"); text.payment(refund) }
        text.endObject()
        text.key("stock")
        text.beginObject()
        for (fruit, count) in stock.counts.sorted(by: { $0.key < $1.key }) {
            text.key(fruit.rawValue); text.integer(count)
        }
        text.endObject()
        text.key("version"); text.integer(version)
        text.endObject()
        return text.bytes
    }
}

extension JSONText {
    /// An order's lines as `apiEncoder` writes `[SoldLine]`.
    mutating func lines(_ lines: [SoldLine]) {
        beginArray()
        for line in lines {
            beginObject()
            key("juice"); string(line.juice.rawValue)
            key("name"); name(line.name)
            key("quantity"); integer(line.quantity)
            key("options")
            beginArray()
            for option in line.options {
                beginObject()
                key("group"); string(option.group.rawValue)
                key("id"); string(option.id.rawValue)
                key("name"); name(option.name)
                key("price"); integer(option.price)
                endObject()
            }
            endArray()
            key("unitPrice"); integer(line.unitPrice)
            key("amount"); integer(line.amount)
            key("uses")
            beginArray()
            for use in line.uses {
                beginObject()
                key("fruit"); string(use.fruit.rawValue)
                key("amount"); integer(use.amount)
                endObject()
            }
            endArray()
            endObject()
        }
        endArray()
    }

    private mutating func name(_ name: LocalizedName) {
        beginObject()
        key("en"); string(name.en)
        key("ko"); string(name.ko)
        endObject()
    }

    /// A payment as `apiEncoder` writes it; none: `null`.
    mutating func payment(_ payment: Payment?) {
        guard let payment else { return null() }
        beginObject()
        key("method"); string(payment.method.rawValue)
        key("amount"); integer(payment.amount)
        if let received = payment.received { key("received"); integer(received) }
        if let change = payment.change { key("change"); integer(change) }
        if let approval = payment.approval { key("approval"); string(approval) }
        key("time"); date(payment.time)
        endObject()
    }
}

extension OrderAnswer {
    // In an extension, so that the memberwise initializer stays too (the tests build answers with it).
    public init(_ receipt: OrderReceipt) {
        self.init(order: receipt.order, stock: receipt.stock.stock, version: receipt.stock.version)
    }
}

/// An active order as the queue shows it: no one's name and no money, for the board by the
/// counter and the making screen (`GET /api/queue`).
public struct QueueEntry: Encodable, Sendable {
    public let id: Int64
    public let number: Int
    public let juice: JuiceID
    public let status: OrderStatus
    /// When it was received.
    public let time: Date
    /// Seconds since it was received.
    public let age: Int
    /// What to make; empty for an order from before carts, one cup of `juice`.
    public let lines: [Line]

    /// A line as the making screen reads it: the juice, its cups and options, and the fruit they take.
    public struct Line: Encodable, Sendable {
        public let juice: JuiceID
        public let name: LocalizedName
        public let quantity: Int
        public let options: [Option]
        /// The fruit all the line's cups take together (a cup's is this over `quantity`).
        public let uses: [Ingredient]
    }

    public struct Option: Encodable, Sendable {
        public let group: OptionGroupID
        public let id: OptionID
        public let name: LocalizedName
    }

    public init(_ order: Order, now: Date) {
        id = order.id
        number = order.number
        juice = order.juice
        status = order.status
        time = order.time
        age = max(0, Int(now.timeIntervalSince(order.time)))
        lines = order.lines.map { line in
            Line(juice: line.juice, name: line.name, quantity: line.quantity,
                 options: line.options.map { Option(group: $0.group, id: $0.id, name: $0.name) }, uses: line.uses)
        }
    }
}

/// A fruit's reorder level beside its count (`PUT /api/stock/{fruit}/level`, `GET /api/stock/low`).
public struct StockLevelAnswer: Encodable, Sendable {
    public let fruit: FruitID
    public let level: Int
    public let count: Int
    public let low: Bool

    public init(_ fruit: Fruit, count: Int) {
        self.fruit = fruit.id
        level = fruit.level
        self.count = count
        low = fruit.isLow(count: count)
    }
}

/// A fruit's new count and the whole stock it left (`PUT /api/stock/{fruit}`).
public struct StockEditAnswer: Encodable, Sendable {
    public let fruit: FruitID
    public let count: Int
    public let stock: Stock
    public let version: Int64

    public init(fruit: FruitID, snapshot: StockSnapshot) {
        self.fruit = fruit
        count = snapshot.stock[fruit]
        stock = snapshot.stock
        version = snapshot.version
    }
}
