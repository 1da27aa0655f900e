/// An order as a till or a member's app asks for it: a cart, where it goes, and how it is paid.
public struct OrderRequest: Hashable, Sendable {
    public var lines: [CartLine]
    /// The member it is linked to.
    public var member: Int64?
    /// Queued for pickup, or made on the spot at the counter.
    public var pickup: Bool
    /// The total the client showed; a different one refuses the order (`priceChanged`).
    public var expectedTotal: Int?
    /// Paid with the order; none: paid later at the counter (매장에서 결제).
    public var payment: PaymentRequest?

    public init(lines: [CartLine], member: Int64? = nil, pickup: Bool = false, expectedTotal: Int? = nil,
                payment: PaymentRequest? = nil) {
        (self.lines, self.member, self.pickup, self.expectedTotal, self.payment) =
            (lines, member, pickup, expectedTotal, payment)
    }

    /// One cup of `juice` with its default options: the order the seed screens place.
    public static func cup(of juice: JuiceID, member: Int64? = nil, pickup: Bool = false) -> OrderRequest {
        OrderRequest(lines: [CartLine(juice: juice)], member: member, pickup: pickup)
    }
}
