/// A cart, a price or a payment the shop refuses. What each says to a person is in the App's
/// word tables.
public enum SaleError: Error, Hashable, Sendable {
    /// No juice of that id is on the menu (or it was retired).
    case unknownJuice(JuiceID)
    /// The juice offers no such group, or the group no such option.
    case unknownOption(group: OptionGroupID, option: OptionID?)
    /// The same option named twice in one group.
    case repeatedOption(group: OptionGroupID, option: OptionID)
    /// Fewer options than the group needs (a required group left empty).
    case optionsRequired(group: OptionGroupID, min: Int)
    case tooManyOptions(group: OptionGroupID, max: Int)
    /// A line's quantity outside 1–99, or an order of no lines or more than 20.
    case badQuantity
    /// 품절: on the menu, not sold now.
    case soldOut(JuiceID)
    /// An option group whose bounds, names or options do not hold together.
    case invalidGroup(OptionGroupID)
    case priceOutOfRange(Int)
    /// The client's total is not the menu's: the menu changed between the cart and the order.
    case priceChanged(expected: Int, total: Int)
    /// Cash handed over is less than the total.
    case notEnoughCash(total: Int, received: Int)
    /// Cash out of a till's range, or an approval number that is not one.
    case badPayment
    /// The order was paid already.
    case alreadyPaid(order: Int64)
    /// A cancelled order is not paid.
    case orderCancelled(order: Int64)

    /// A short machine-readable code: the API's `error` field.
    public var code: String {
        switch self {
        case .unknownJuice: "unknown_juice"
        case .unknownOption: "unknown_option"
        case .repeatedOption: "repeated_option"
        case .optionsRequired: "options_required"
        case .tooManyOptions: "too_many_options"
        case .badQuantity: "bad_quantity"
        case .soldOut: "sold_out"
        case .invalidGroup: "invalid_option_group"
        case .priceOutOfRange: "price_out_of_range"
        case .priceChanged: "price_changed"
        case .notEnoughCash: "not_enough_cash"
        case .badPayment: "bad_payment"
        case .alreadyPaid: "already_paid"
        case .orderCancelled: "order_cancelled"
        }
    }
}
