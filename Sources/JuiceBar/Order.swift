import struct Foundation.Date

/// A juice ordered: made on the spot at the counter, or queued for pickup with a number to call.
public struct Order: Hashable, Codable, Sendable {
    public var id: Int64
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

    public init(id: Int64, juice: JuiceID, time: Date, actor: String, number: Int = 0, day: String = "",
                status: OrderStatus = .pickedUp, statusTime: Date? = nil, readyTime: Date? = nil,
                pickup: Bool = false, member: Int64? = nil) {
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
    }

    private enum CodingKeys: String, CodingKey {
        case id, juice, time, actor, number, day, status, statusTime, readyTime, pickup
    }

    /// Moves the order to `status` at `time`, noting when the juice was ready.
    mutating func move(to status: OrderStatus, at time: Date) {
        self.status = status
        statusTime = time
        if status.isReady && readyTime == nil { readyTime = time }
    }
}
