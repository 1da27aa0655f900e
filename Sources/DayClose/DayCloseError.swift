/// What closing a day or reading a report refuses.
public enum DayCloseError: Error, Hashable, Sendable {
    case alreadyClosed(day: String)
    case unknownReport(String)
}

/// The first report that no longer matches what is stored, and why.
public struct BrokenReport: Error, Hashable, Sendable {
    public enum Reason: Hashable, Sendable {
        /// The stored hash is not the hash of the stored body.
        case hash
        /// The report does not follow the one before: its number or `previousHash`.
        case chain
        /// The body is not a report.
        case unreadable
        /// Recomputed from the stored records, these parts of the report come out otherwise.
        case records([String])
    }

    public var number: Int
    public var day: String
    public var reason: Reason

    public init(number: Int, day: String, reason: Reason) {
        (self.number, self.day, self.reason) = (number, day, reason)
    }
}
