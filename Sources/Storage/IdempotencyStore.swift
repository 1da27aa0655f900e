import Foundation

/// An answer as it was sent, kept so that a repeat of the request gets it again.
public struct StoredAnswer: Hashable, Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]

    public init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// What a request carrying an `Idempotency-Key` finds when it claims the key.
public enum IdempotencyClaim: Hashable, Sendable {
    /// The key is new: this request acts, then completes (or releases) the claim.
    case acquired
    /// A request with the key was answered already: this is its answer.
    case answered(StoredAnswer)
    /// A request with the key is still being handled (here or on another server).
    case pending
    /// The key was used for a different request.
    case mismatch
}

/// Keys of requests that must never act twice, in the shop's database so that they hold across
/// servers and restarts. The first claim of a key inserts a pending row; every repeat finds it.
public protocol IdempotencyStore: Sendable {
    /// Claims `key` in `scope` (an account, or a guest's address) for `request` (what was asked:
    /// method, path and body). Keys older than `IdempotencyStoreLimits.lifetime` are forgotten.
    func claim(scope: String, key: String, request: String, at time: Date) async throws -> IdempotencyClaim
    /// Keeps the answer of the request that acted.
    func complete(scope: String, key: String, with answer: StoredAnswer) async throws
    /// Forgets a claim whose request did nothing (the server could not do it), so a retry acts.
    func release(scope: String, key: String) async throws
}

public enum IdempotencyStoreLimits {
    /// How long a key's answer is kept.
    public static let lifetime: TimeInterval = 24 * 60 * 60
}
