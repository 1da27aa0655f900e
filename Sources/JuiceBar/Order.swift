import struct Foundation.Date

/// A juice ordered: made on the spot at the counter, or queued for pickup with a number to call.
public struct Order: Hashable, Codable, Sendable {
    public var id: Int64
    /// The first line's juice: what a one-cup order (all before carts) was of.
    public var juice: JuiceID
    /// When it was accepted (and its fruit taken).
    public var time: Date
    public var actor: String
    /// The number called at the counter: 1, 2, 3 … within its shop day.
    public var number: Int
    /// The shop day it belongs to, `YYYY-MM-DD` in the shop's time zone.
    public var day: String
    public var status: OrderStatus
    /// When it reached its current status.
    public var statusTime: Date
    /// When it was ready (made), if it has been.
    public var readyTime: Date?
    /// Queued for pickup (`true`) or made on the spot at the counter.
    public var pickup: Bool
    /// The member who placed it; not part of what the API shows.
    public var member: Int64?
    /// What was sold, as priced when it was accepted; empty for an order from before carts,
    /// which was one cup of `juice` at no price.
    public var lines: [SoldLine]
    /// The lines' amounts added up, VAT included, and the VAT inside it.
    public var total: Int
    public var vat: Int
    /// How it was paid; none yet: to be paid at the counter.
    public var payment: Payment?
    /// The payment given back when a paid order was cancelled.
    public var refund: Payment?

    public init(id: Int64, juice: JuiceID, time: Date, actor: String, number: Int = 0, day: String = "",
                status: OrderStatus = .pickedUp, statusTime: Date? = nil, readyTime: Date? = nil,
                pickup: Bool = false, member: Int64? = nil, sale: PricedCart? = nil, payment: Payment? = nil,
                refund: Payment? = nil) {
        self.id = id
        self.juice = juice
        self.time = time
        self.actor = actor
        self.number = number
        self.day = day
        self.status = status
        self.statusTime = statusTime ?? time
        self.readyTime = readyTime
        self.pickup = pickup
        self.member = member
        lines = sale?.lines ?? []
        total = sale?.total ?? 0
        vat = sale?.vat ?? 0
        self.payment = payment
        self.refund = refund
    }

    private enum CodingKeys: String, CodingKey {
        case id, juice, time, actor, number, day, status, statusTime, readyTime, pickup, lines, total, vat, payment, refund
    }

    /// As synthesized, but `payment` is written even when there is none (`null`: to be paid at
    /// the counter), so that a client sees the order is unpaid rather than a field missing.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(juice, forKey: .juice)
        try container.encode(time, forKey: .time)
        try container.encode(actor, forKey: .actor)
        try container.encode(number, forKey: .number)
        try container.encode(day, forKey: .day)
        try container.encode(status, forKey: .status)
        try container.encode(statusTime, forKey: .statusTime)
        try container.encodeIfPresent(readyTime, forKey: .readyTime)
        try container.encode(pickup, forKey: .pickup)
        try container.encode(lines, forKey: .lines)
        try container.encode(total, forKey: .total)
        try container.encode(vat, forKey: .vat)
        try container.encode(payment, forKey: .payment)
        try container.encodeIfPresent(refund, forKey: .refund)
    }

    /// The stock the order took: its lines', or for an order from before carts the recipe of its
    /// juice as it stands (`recipe`), the only record there is of it.
    public func uses(recipe: [Ingredient]) -> [Ingredient] {
        lines.isEmpty ? recipe : lines.flatMap(\.uses).perFruit
    }

    /// Moves the order to `status` at `time`, noting when the juice was ready.
    mutating func move(to status: OrderStatus, at time: Date) {
        self.status = status
        statusTime = time
        if status.isReady && readyTime == nil { readyTime = time }
    }
}
