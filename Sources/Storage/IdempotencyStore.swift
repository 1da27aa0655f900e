import Crypto
import DayClose
import Foundation
import NIOCore
import Synchronization

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

/// What a request carrying an `Idempotency-Key` finds when its key is taken already.
public enum IdempotencyClaim: Hashable, Sendable {
    /// A request with the key was answered already: this is its answer.
    case answered(StoredAnswer)
    /// A request with the key is still being handled (an older server's, which kept its key before
    /// its answer), or waits in the same batch.
    case pending
    /// The key was used for a different request.
    case mismatch

    /// What a stored key tells a request that asked `asked`.
    init(asked: String, stored request: String, status: Int?, contentType: String?, body: [UInt8]?) {
        if request != asked {
            self = .mismatch
        } else if let status {
            self = .answered(StoredAnswer(status: status, contentType: contentType ?? "", body: body ?? []))
        } else {
            self = .pending
        }
    }
}

/// What a keyed request asked, as its key keeps it and a repeat is compared with it: the SHA-256
/// of its method, path and body, in hex. 64 characters whatever the body, and none an engine's
/// text cannot hold: kept as text, a body with a NUL byte in it ended at the NUL in SQLite (so a
/// retry of it met "another request", 422) and was refused by PostgreSQL (a 500).
public enum RequestFingerprint {
    public static func of(method: String, path: String, body: ByteBuffer) -> String {
        var hash = SHA256()
        var head = "\(method) \(path)\n"
        head.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        body.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
        return hash.finalize().hex
    }

    /// The fingerprint of a request kept before as its text, `METHOD PATH\nBODY`.
    static func of(keptText text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).hex
    }
}

/// A keyed write found its key taken by an earlier request, inside its own transaction: it did
/// nothing, and `claim` says what the earlier request left.
public struct KeyAlreadyUsed: Error, Sendable {
    public let claim: IdempotencyClaim
}

/// Keys of requests that must never act twice, in the shop's database so that they hold across
/// servers and restarts. A write that carries its key (`IdempotentWrite`) claims it and keeps its
/// answer in its own batch's transaction; these are the reads and the keeping of requests whose
/// answer came from no keyed write.
public protocol IdempotencyStore: Sendable {
    /// What is kept for `key` in `scope` (an account, or a guest's address), given what is asked
    /// now (`RequestFingerprint`); nil for a key not used within `IdempotencyStoreLimits.lifetime`.
    /// A read: it commits nothing.
    func find(scope: String, key: String, request: String, at time: Date) async throws -> IdempotencyClaim?
    /// Keeps `answer` for `write`'s key in a commit of its own, for a request whose answer came
    /// from no keyed write (a refusal before any write). Returns what an earlier request left when
    /// the key was taken meanwhile, and keeps nothing then.
    func keep(_ answer: StoredAnswer, for write: IdempotentWrite) async throws -> IdempotencyClaim?
}

public enum IdempotencyStoreLimits {
    /// How long a key's answer is kept.
    public static let lifetime: TimeInterval = 24 * 60 * 60

    /// Keys created before this are forgotten.
    static func oldest(at time: Date) -> Double { time.storedValue - lifetime }
}

/// A request's `Idempotency-Key` as its write carries it into the store. The batch that does the
/// write claims the key in the same transaction, first (a key an earlier request holds stops the
/// write before it is decided: `KeyAlreadyUsed`), then renders the write's answer from what was
/// decided, with the request's own function, and keeps those bytes with the key, before the commit.
/// So the write, its key and its answer commit together or not at all, in one group commit; and
/// since the request sends the very bytes kept (`kept`, once committed), a replay is exactly the
/// first answer. An answer that is the server's failure (nil from `render`) keeps nothing.
///
/// A class: a write is handed from the request to the batch and through it (its pending write, the
/// claim, the answers kept), and as a struct of five references each hand-over was five retains.
public final class IdempotentWrite: Sendable {
    /// The key's place, made once: a batch looks it up in several tables.
    let place: KeyPlace
    public var scope: String { place.scope }
    public var key: String { place.key }
    /// What the request asked: its `RequestFingerprint`.
    public let request: String
    public let time: Date
    private let render: @Sendable (Result<any Sendable, any Error>) -> StoredAnswer?
    private let keeping: Kept

    /// `answering` renders the answer of the write from what its store decided: the store's
    /// commit, or the write's refusal; nil for an answer that must not be kept (a 5xx).
    public convenience init<Answered: Sendable>(
        scope: String, key: String, request: String, time: Date,
        answering: @escaping @Sendable (Result<Answered, any Error>) -> StoredAnswer?
    ) {
        self.init(place: KeyPlace(scope: scope, key: key), request: request, time: time, answering: answering)
    }

    /// The same, for a key whose place its request has made already.
    public convenience init<Answered: Sendable>(
        place: KeyPlace, request: String, time: Date,
        answering: @escaping @Sendable (Result<Answered, any Error>) -> StoredAnswer?
    ) {
        self.init(place: place, request: request, time: time, keeping: Kept()) { result in
            answering(result.map { $0 as! Answered })
        }
    }

    private init(place: KeyPlace, request: String, time: Date, keeping: Kept,
                 render: @escaping @Sendable (Result<any Sendable, any Error>) -> StoredAnswer?) {
        self.place = place
        self.request = request
        self.time = time
        self.keeping = keeping
        self.render = render
    }

    /// The same key for a store that decides `Commit`, which its caller turns into the `Answered`
    /// the request renders (an order's receipt from the stock commit). Both keep one answer.
    public func receiving<Commit: Sendable, Answered: Sendable>(
        _ transform: @escaping @Sendable (Commit) -> Answered
    ) -> IdempotentWrite {
        let render = self.render
        return IdempotentWrite(place: place, request: request, time: time, keeping: keeping) { result in
            render(result.map { transform($0 as! Commit) as any Sendable })
        }
    }

    /// The answer to keep for the write's result; nil: keep nothing.
    func answer<Commit: Sendable>(_ result: Result<Commit, any Error>) -> StoredAnswer? {
        render(result.map { $0 as any Sendable })
    }

    /// The answer kept with the write, once its transaction committed; nil when none was.
    public var kept: StoredAnswer? { keeping.answer.withLock { $0 } }

    /// Called once the transaction that kept `answer` committed.
    func committed(_ answer: StoredAnswer?) { keeping.answer.withLock { $0 = answer } }

    private final class Kept: Sendable {
        let answer = Mutex<StoredAnswer?>(nil)
    }
}

/// Where a key is kept: its scope and the key itself. Its hash is computed once, when it is made:
/// a request's key is looked up in several sets and tables on its way.
public struct KeyPlace: Hashable, Comparable, Sendable {
    public let scope: String
    public let key: String
    private let hash: Int

    public init(scope: String, key: String) {
        self.scope = scope
        self.key = key
        var hasher = Hasher()
        hasher.combine(scope)
        hasher.combine(key)
        hash = hasher.finalize()
    }

    public static func == (left: KeyPlace, right: KeyPlace) -> Bool {
        left.hash == right.hash && left.scope == right.scope && left.key == right.key
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    public static func < (left: KeyPlace, right: KeyPlace) -> Bool { (left.scope, left.key) < (right.scope, right.key) }
}
