/// A fruit's stable id (`strawberry`, `kiwi` …): what stock, recipes, pages and the API name it by.
public struct FruitID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
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

/// A juice's stable id (`strawberryBananaJuice` …): every order control carries one, never a title.
public struct JuiceID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
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

/// The shape of an id a shop may give a new fruit or juice: a letter, then letters or digits, at most 40.
public enum Identifier {
    public static func isValid(_ candidate: String) -> Bool {
        guard let first = candidate.first, first.isASCII, first.isLetter, candidate.count <= 40 else { return false }
        return candidate.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
