import struct Foundation.Date

/// How a customer paid at the counter. A card is read by the shop's own terminal, apart from
/// this system: the order keeps that it was paid by card and the terminal's approval number.
public enum PaymentMethod: String, Hashable, Codable, Sendable, CaseIterable {
    case cash, card, transfer
}

/// Money taken for an order, or given back for it (a refund is the payment's method and amount).
public struct Payment: Hashable, Codable, Sendable {
    public var method: PaymentMethod
    /// Won taken (or refunded): the order's total.
    public var amount: Int
    /// Cash handed over, and the change given back; absent for card and transfer.
    public var received: Int?
    public var change: Int?
    /// The card terminal's approval number (승인번호), when staff typed it.
    public var approval: String?
    public var time: Date

    public init(method: PaymentMethod, amount: Int, received: Int? = nil, change: Int? = nil,
                approval: String? = nil, time: Date) {
        (self.method, self.amount, self.received, self.change, self.approval, self.time) =
            (method, amount, received, change, approval, time)
    }

    /// The refund of this payment: the same method and amount, given back at `time`.
    public func refunded(at time: Date) -> Payment {
        Payment(method: method, amount: amount, approval: approval, time: time)
    }
}

/// A payment as staff ask for it: the method, the cash handed over, the card's approval number.
public struct PaymentRequest: Hashable, Codable, Sendable {
    public var method: PaymentMethod
    public var received: Int?
    public var approval: String?

    public init(method: PaymentMethod, received: Int? = nil, approval: String? = nil) {
        (self.method, self.received, self.approval) = (method, received, approval)
    }

    /// A card terminal's approval number: up to 20 letters, digits and dashes.
    public static let approvalLength = 1...20

    /// Checks what needs no total: an amount a till can hold, an approval number of digits.
    public func validate() throws(SaleError) {
        if let received, !Prices.received.contains(received) { throw .badPayment }
        if let approval, !Self.approvalLength.contains(approval.count)
            || !approval.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) { throw .badPayment }
    }

    /// The payment of `total` at `time`: cash must cover it (none said: exactly the total), and
    /// its change is the rest.
    public func settle(_ total: Int, at time: Date) throws(SaleError) -> Payment {
        try validate()
        guard method == .cash else { return Payment(method: method, amount: total, approval: approval, time: time) }
        let cash = received ?? total
        guard cash >= total else { throw .notEnoughCash(total: total, received: cash) }
        return Payment(method: .cash, amount: total, received: cash, change: cash - total, time: time)
    }
}
