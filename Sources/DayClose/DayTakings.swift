import JuiceBar

/// The counter's money of a report, as a shop's 마감 counts it: by when money changed hands, so
/// that the report of a day agrees with that day's drawer and card terminal.
///
/// - `gross` (총매출): payments taken in the report's time: those of its own orders paid by the
///   close, and those of earlier orders that were still `unpaid` at the report before.
/// - `refunds` (환불): payments given back by the cancels in the report's time, of any day's orders.
/// - `net` (순매출) = `gross` − `refunds`, and `vat` (부가세) the VAT inside it: each payment's
///   order's VAT less each refund's, so the report adds up what the receipts printed.
/// - `methods`: the same three figures for each payment method (cash, card, transfer, all listed);
///   `cashInDrawer` is cash's net, what the drawer should hold beyond its float (시재금).
/// - `juices` and `options`: the cups the report's orders sold and what they came to, cancelled
///   ones left out, whether paid yet or not; options by group, then option, in cups.
/// - `unpaid`: orders sold and not paid at the close (a member's app order, to be paid at the
///   counter), of this report or carried from the one before. `unpaidPickedUp`: those of them
///   handed over already, which staff should chase. The next report reads them again: one paid
///   by its close is in its `paidLate` and its payment in its `gross`. One still owed is carried on
///   while it waits in the queue, and for one report after it is listed as picked up unpaid; then
///   the reports let it go (a payment after that is in no report), so that orders never settled
///   in the shop, such as cups sold with no payment recorded, are not read again at every close.
public struct DayTakings: Hashable, Codable, Sendable {
    public var gross = 0
    public var refunds = 0
    public var net = 0
    public var vat = 0
    public var methods: [String: MethodTakings] = [:]
    public var cashInDrawer = 0
    public var juices: [String: JuiceSales] = [:]
    public var options: [String: [String: Int]] = [:]
    public var unpaid: [Int64] = []
    public var unpaidPickedUp: [Int64] = []
    public var paidLate: [Int64] = []

    public init() {}
}

/// One payment method's money of a report.
public struct MethodTakings: Hashable, Codable, Sendable {
    public var gross = 0
    public var refunds = 0
    public var net = 0

    public init(gross: Int = 0, refunds: Int = 0, net: Int = 0) {
        (self.gross, self.refunds, self.net) = (gross, refunds, net)
    }
}

/// One juice's cups sold in a report, and what they came to with their options.
public struct JuiceSales: Hashable, Codable, Sendable {
    public var cups = 0
    public var amount = 0

    public init(cups: Int = 0, amount: Int = 0) {
        (self.cups, self.amount) = (cups, amount)
    }
}

/// Adds up a report's takings as `DayTally` reads its records.
struct TakingsTally: Sendable {
    private var takings = DayTakings()
    private var methods: [PaymentMethod: MethodTakings] = [:]
    private var refundedVAT = 0
    private var takenVAT = 0

    mutating func take(_ payment: Payment, vat: Int) {
        takings.gross += payment.amount
        takenVAT += vat
        methods[payment.method, default: MethodTakings()].gross += payment.amount
    }

    mutating func giveBack(_ refund: Payment, vat: Int) {
        takings.refunds += refund.amount
        refundedVAT += vat
        methods[refund.method, default: MethodTakings()].refunds += refund.amount
    }

    mutating func sell(_ lines: [SoldLine]) {
        for line in lines {
            takings.juices[line.juice.rawValue, default: JuiceSales()].cups += line.quantity
            takings.juices[line.juice.rawValue, default: JuiceSales()].amount += line.amount
            for option in line.options {
                takings.options[option.group.rawValue, default: [:]][option.id.rawValue, default: 0] += line.quantity
            }
        }
    }

    /// An order unpaid at the report before, paid by this close (its payment taken besides).
    mutating func paidLate(_ order: Int64) {
        takings.paidLate.append(order)
    }

    mutating func owe(_ order: Int64, pickedUp: Bool) {
        takings.unpaid.append(order)
        if pickedUp { takings.unpaidPickedUp.append(order) }
    }

    var result: DayTakings {
        var result = takings
        result.net = result.gross - result.refunds
        result.vat = takenVAT - refundedVAT
        for method in PaymentMethod.allCases {
            var tally = methods[method] ?? MethodTakings()
            tally.net = tally.gross - tally.refunds
            result.methods[method.rawValue] = tally
        }
        result.cashInDrawer = result.methods[PaymentMethod.cash.rawValue]?.net ?? 0
        result.unpaid.sort()
        result.unpaidPickedUp.sort()
        result.paidLate.sort()
        return result
    }
}
