/// A model's stable id (`strawberry`, `strawberryBananaJuice` …): what stock, recipes, pages and
/// the API name it by. The `Kind` keeps a fruit's id from being taken for a juice's.
public struct ModelID<Kind>: Hashable, Comparable, Codable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

public enum FruitKind {}
public enum JuiceKind {}

/// A fruit's id, e.g. `kiwi`.
public typealias FruitID = ModelID<FruitKind>
/// A juice's id, e.g. `strawberryBananaJuice`: every order control carries one, never a title.
public typealias JuiceID = ModelID<JuiceKind>

/// The shape of an id a shop may give a new fruit or juice: a letter, then letters or digits, at most 40.
public enum Identifier {
    public static func isValid(_ candidate: String) -> Bool {
        guard let first = candidate.first, first.isASCII, first.isLetter, candidate.count <= 40 else { return false }
        return candidate.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
