import Hummingbird

extension Request {
    /// The most rows one list answer gives.
    static let maximumListLimit = 10_000

    /// `?limit=N`, a whole number from 1 to `maximumListLimit`, when given: how many rows a list answer gives.
    func listLimit() throws -> Int? {
        guard let text = uri.queryParameters["limit"] else { return nil }
        guard let limit = Int(String(text)), (1...Self.maximumListLimit).contains(limit) else {
            throw APIError(.badRequest, "invalid_limit", .invalidLimit, ["max": .number(Self.maximumListLimit)])
        }
        return limit
    }
}
