import struct Foundation.Date

/// Where an order is between the button and the pickup counter. An order moves only forward,
/// `received` → `making` → `ready` → `pickedUp`, one step or more; or it is `cancelled`.
public enum OrderStatus: String, Codable, CaseIterable, Sendable {
    case received, making, ready, pickedUp, cancelled

    /// The steps in the order they come; `cancelled` is off the line.
    private static let line: [OrderStatus] = [.received, .making, .ready, .pickedUp]

    /// Still in the queue: staff have something left to do with it.
    public var isActive: Bool { self == .received || self == .making || self == .ready }

    /// The statuses of the queue, in the order an order goes through them.
    public static let active = allCases.filter(\.isActive)

    /// Whether an order in this state may move to `next`: forward along the line only.
    public func canMove(to next: OrderStatus) -> Bool {
        guard let from = Self.line.firstIndex(of: self), let to = Self.line.firstIndex(of: next) else { return false }
        return to > from
    }

    /// Whether the juice is made by the time an order is in this state.
    public var isReady: Bool { self == .ready || self == .pickedUp }
}

/// Who asks to cancel an order: staff, or a member (who may cancel only their own).
public enum Canceller: Hashable, Sendable {
    case staff
    case member(Int64)
}

/// What the queue refuses: an unknown order, a move it cannot make, a cancel not allowed.
public enum OrderError: Error, Hashable, Sendable {
    case unknownOrder(Int64)
    /// The order is already `status` and cannot go to `to`.
    case cannotMove(from: OrderStatus, to: OrderStatus)
    /// The order is `status`, past the point where the one asking may cancel it.
    case cannotCancel(OrderStatus)
    /// A member asked to cancel someone else's order.
    case notYours(Int64)
    /// Not one of the statuses an order can be moved to.
    case unknownStatus(String)

    /// The input names no order or status (rather than the shop refusing a valid request).
    public var isBadInput: Bool {
        switch self {
        case .unknownOrder, .unknownStatus: true
        default: false
        }
    }

    public var code: String {
        switch self {
        case .unknownOrder: "not_found"
        case .cannotMove: "invalid_transition"
        case .cannotCancel: "cannot_cancel"
        case .notYours: "forbidden"
        case .unknownStatus: "invalid_status"
        }
    }
}

/// The rules of the queue: who may cancel when, and how long a member will wait.
public enum OrderRules {
    /// A member may cancel their own order until staff start making it; staff until it is ready.
    public static func mayCancel(_ order: Order, by canceller: Canceller) throws(OrderError) {
        switch canceller {
        case .member(let member):
            guard order.member == member else { throw .notYours(order.id) }
            guard order.status == .received else { throw .cannotCancel(order.status) }
        case .staff:
            guard order.status == .received || order.status == .making else { throw .cannotCancel(order.status) }
        }
    }

    /// How many recent orders the average wait is taken over.
    public static let recentOrdersForAverage = 20
    /// The wait assumed per drink before any order has been ready (a new shop).
    public static let assumedSecondsPerDrink: Double = 120

    /// How long a new order waits, in whole minutes (at least 1): the drinks ahead of it and the new
    /// one, each at the recent average from `received` to `ready`. On the safe side: a member would
    /// rather be told 6 minutes and wait 4 than the other way round. `averageSeconds` is nil for a
    /// shop with no ready order yet.
    public static func waitMinutes(ahead: Int, averageSeconds: Double?) -> Int {
        let perDrink = averageSeconds ?? assumedSecondsPerDrink
        return max(1, Int((perDrink * Double(ahead + 1) / 60).rounded(.up)))
    }
}
