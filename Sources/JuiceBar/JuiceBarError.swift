/// Input the juice bar refuses, each with a reason a person can read in one line.
public enum JuiceBarError: Error, Hashable, Sendable, CustomStringConvertible {
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

    public var description: String {
        switch self {
        case .unknownFruit(let id): "unknown fruit '\(id)'"
        case .unknownJuice(let id): "unknown juice '\(id)'"
        case .notANumber(let text): "'\(text)' is not a whole number"
        case .countOutOfRange(let count):
            "count \(count) is outside \(StockLimits.count.lowerBound)...\(StockLimits.count.upperBound)"
        case .amountOutOfRange(let amount):
            "recipe amount \(amount) is outside \(StockLimits.recipeAmount.lowerBound)...\(StockLimits.recipeAmount.upperBound)"
        case .invalidIdentifier(let id): "'\(id)' is not a valid id (a letter, then letters or digits, at most 40)"
        case .duplicate(let id): "'\(id)' already exists"
        case .emptyName: "a name in both Korean and English is required"
        case .invalidText(let field): "\(field) must not contain a NUL character"
        case .emptyRecipe: "a juice needs at least one ingredient"
        }
    }
}
