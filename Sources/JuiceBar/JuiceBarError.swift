/// Input the juice bar refuses. What each says to a person is in the App's word tables.
public enum JuiceBarError: Error, Hashable, Sendable {
    case unknownFruit(String)
    case unknownJuice(String)
    case notANumber(String)
    case countOutOfRange(Int)
    case amountOutOfRange(Int)
    case invalidIdentifier(String)
    case duplicate(String)
    case emptyName
    /// A name holds a character text may not (NUL).
    case invalidText(String)
    case emptyRecipe

    /// A short machine-readable code: the API's `error` field.
    public var code: String {
        switch self {
        case .unknownFruit: "unknown_fruit"
        case .unknownJuice: "unknown_juice"
        case .notANumber: "not_a_number"
        case .countOutOfRange: "count_out_of_range"
        case .amountOutOfRange: "amount_out_of_range"
        case .invalidIdentifier: "invalid_id"
        case .duplicate: "duplicate"
        case .emptyName: "empty_name"
        case .invalidText: "invalid_text"
        case .emptyRecipe: "empty_recipe"
        }
    }
}

/// A whole number typed by a person (a count, a price, an amount), or the refusal that says it is
/// not one; its bounds are the rule's that uses it.
public func wholeNumber(_ text: String) throws(JuiceBarError) -> Int {
    guard let number = Int(text) else { throw .notANumber(text) }
    return number
}
