import Foundation

/// One page of rows to export, oldest first: those after `after` (an id) in the period, at most
/// `limit`. Exports read page after page, so a year of rows never sits in memory at once.
public struct ExportWindow: Sendable {
    public var after: Int64
    /// Rows at or after this moment (nil: from the first).
    public var from: Date?
    /// Rows before this moment (nil: to the last).
    public var until: Date?
    public var limit: Int

    public init(after: Int64 = 0, from: Date? = nil, until: Date? = nil, limit: Int = 500) {
        self.after = after
        self.from = from
        self.until = until
        self.limit = limit
    }

    /// The period's bounds as stored moments, open ends as far as a stored moment can be.
    var storedBounds: (from: Double, until: Double) {
        (from?.storedValue ?? -Double.greatestFiniteMagnitude, until?.storedValue ?? Double.greatestFiniteMagnitude)
    }
}
