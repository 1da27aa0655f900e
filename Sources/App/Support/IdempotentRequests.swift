import Foundation
import Hummingbird
import JuiceBar
import NIOCore
import ShopBasics
import Storage
import Synchronization

/// Requests that must never act twice: an order, money put in, a purchase. A client sends an
/// `Idempotency-Key` with each tap and the same key when it retries; the first request with a
/// key acts and its answer is kept, and every repeat within a day (per account, or per address
/// for guests) gets that answer again, same status and body, also while the first is still being
/// handled on this server (it waits in `inFlight`) or another (the key's row decides, in the
/// write's own transaction).
///
/// The route hands the key to its store's write (`IdempotentWrite`): the key, the write and its
/// answer are one commit. The answer is rendered once, inside the write's batch before the commit,
/// by the route's own `answering` function from what the store decided (or by the refusal's
/// words); those kept bytes are what this request sends, so a replay is the first answer exactly.
/// An answer that came from no keyed write (a refusal before any write) is kept in a commit of its
/// own. A 5xx keeps nothing, so a retry acts.
struct IdempotentRequests: Sendable {
    let store: any IdempotencyStore
    let menu: @Sendable () -> Menu
    let now: @Sendable () -> Date
    let inFlight = KeysInFlight()

    static let header = HTTPFields.Element.Name("Idempotency-Key")!
    /// Set on an answer given again.
    static let replayedHeader = HTTPFields.Element.Name("Idempotent-Replayed")!
    /// How long a repeat waits for the first request's answer before it is told to try later.
    static let patience: Duration = .seconds(10)

    /// Where a repeat is first told apart from a first request.
    enum KeyLookup {
        /// In the write's own transaction: `act` hands the key it is given to its store's write,
        /// which claims it there (`KeyAlreadyUsed` for a repeat) before anything is decided, so a
        /// keyed request costs no read before its write.
        case inWrite
        /// Before `act` runs, for work with no keyed store write to carry the key.
        case before
    }

    /// Runs `act` once per key and answers what `answering` makes of its result; a request without
    /// the header simply runs it.
    func handle<Answered: Sendable>(
        _ request: Request, context: ShopRequestContext,
        answering answer: @escaping @Sendable (Answered) -> StoredAnswer, lookup: KeyLookup = .inWrite,
        _ act: (Request, ShopRequestContext, IdempotentWrite?) async throws -> Answered
    ) async throws -> Response {
        guard let key = try Self.key(of: request) else { return Response(answer(try await act(request, context, nil))) }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Request.maximumJSONBody)
        } catch {
            throw APIError(.contentTooLarge, "too_large", .tooLarge)
        }
        request.body = .init(buffer: body)
        let scope = context.account.map { "account:\($0.id)" } ?? "guest:\(context.clientAddress)"
        let asked = Asked(place: KeyPlace(scope: scope, key: key),
                          request: RequestFingerprint.of(method: request.method.rawValue, path: request.uri.path, body: body),
                          language: context.language, giveUp: ContinuousClock.now + Self.patience)
        try await inFlight.take(asked.place, until: asked.giveUp)
        defer { inFlight.release(asked.place) }
        if lookup == .before,
           let earlier = try await earlier(try await store.find(scope: asked.scope, key: key, request: asked.request, at: now()),
                                           asked) {
            return earlier
        }
        while true {
            let write = keyedWrite(asked, answering: answer)
            if let response = try await actOnce(write, asked, answer: answer, { try await act(request, context, write) }) {
                return response
            }
        }
    }

    /// What a keyed request asked, and until when it waits for an earlier one.
    private struct Asked {
        let place: KeyPlace
        let request: String
        let language: Language
        let giveUp: ContinuousClock.Instant

        var scope: String { place.scope }
        var key: String { place.key }
    }

    private func keyedWrite<Answered: Sendable>(
        _ asked: Asked, answering answer: @escaping @Sendable (Answered) -> StoredAnswer
    ) -> IdempotentWrite {
        IdempotentWrite(place: asked.place, request: asked.request, time: now()) { [menu] (result: Result<Answered, any Error>) -> StoredAnswer? in
            switch result {
            case .success(let answered): answer(answered)
            case .failure(let error): Self.refusal(error, in: asked.language, menu: menu())
            }
        }
    }

    /// Acts with `write`'s key and answers as kept; nil when the key was let go by the request that
    /// held it meanwhile, so this one may act after all.
    private func actOnce<Answered: Sendable>(
        _ write: IdempotentWrite, _ asked: Asked, answer: (Answered) -> StoredAnswer, _ act: () async throws -> Answered
    ) async throws -> Response? {
        let answered: StoredAnswer
        do {
            let value = try await act()
            if let kept = write.kept { return Response(kept) }
            answered = answer(value)
        } catch let used as KeyAlreadyUsed {
            return try await earlier(used.claim, asked)
        } catch {
            if let kept = write.kept { return Response(kept) }
            guard let refusal = Self.refusal(error, in: asked.language, menu: menu()) else { throw error }
            answered = refusal
        }
        if let taken = try await store.keep(answered, for: write) { return try await earlier(taken, asked) }
        return Response(answered)
    }

    /// The answer an earlier request with the key left, waiting while it is being handled (on an
    /// older server); nil when there is none.
    private func earlier(_ claim: IdempotencyClaim?, _ asked: Asked) async throws -> Response? {
        var claim = claim
        while true {
            switch claim {
            case nil:
                return nil
            case .answered(let answer):
                return Response(answer, replayed: true)
            case .mismatch:
                throw APIError(.unprocessableContent, "idempotency_key_reused", .idempotencyKeyReused)
            case .pending:
                guard ContinuousClock.now < asked.giveUp else { throw KeysInFlight.inProgress }
                try await Task.sleep(for: .milliseconds(20))
                claim = try await store.find(scope: asked.scope, key: asked.key, request: asked.request, at: now())
            }
        }
    }

    /// A refusal as its request answers it, to be kept; nil for a failure of the server's (5xx).
    static func refusal(_ error: any Error, in language: Language, menu: Menu) -> StoredAnswer? {
        let refusal = APIError(error)
        guard refusal.status.code < 500 else { return nil }
        return StoredAnswer.json(refusal.json(in: language, menu: menu), status: refusal.status)
    }

    /// The request's key: nil without the header; 400 for one that is not valid, or for two.
    /// Read from the fields themselves: `headers[name]` joins every value into a new string.
    static func key(of request: Request) throws -> String? {
        var key: String?
        for field in request.headers where field.name == header {
            guard key == nil, isValid(field.value) else {
                throw APIError(.badRequest, "invalid_idempotency_key", .invalidIdempotencyKey)
            }
            key = field.value
        }
        return key
    }

    /// A key is 1 to 255 visible ASCII characters (a UUID, typically).
    static func isValid(_ key: String) -> Bool {
        (1...255).contains(key.utf8.count) && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}

/// The keys whose requests this server is handling now. A repeat of one waits here until the first
/// is answered, then finds its kept answer; between servers the key's row decides.
final class KeysInFlight: Sendable {
    private let state = Mutex(State())

    private struct State {
        var held: Set<KeyPlace> = []
        var waiting = 0
    }

    static let inProgress = APIError(.conflict, "request_in_progress", .requestInProgress).retrying(after: 1)

    /// How many requests are waiting for a key to be let go.
    var waiting: Int { state.withLock { $0.waiting } }

    /// Holds `place` for this request, once no other request holds it; 409 when that takes past `giveUp`.
    func take(_ place: KeyPlace, until giveUp: ContinuousClock.Instant) async throws {
        guard !state.withLock({ $0.held.insert(place).inserted }) else { return }
        state.withLock { $0.waiting += 1 }
        defer { state.withLock { $0.waiting -= 1 } }
        // A repeat while the first is in flight is rare (a double tap, a retry too soon): polling is enough.
        repeat {
            guard ContinuousClock.now < giveUp else { throw Self.inProgress }
            try await Task.sleep(for: .milliseconds(5))
        } while !state.withLock({ $0.held.insert(place).inserted })
    }

    func release(_ place: KeyPlace) {
        _ = state.withLock { $0.held.remove(place) }
    }
}

extension StoredAnswer {
    /// JSON as the API writes it (`apiEncoder`).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> StoredAnswer {
        StoredAnswer(status: status.code, contentType: "application/json; charset=utf-8", body: [UInt8](apiJSON(value)))
    }

    /// JSON already written (`JSONText`).
    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok) -> StoredAnswer {
        StoredAnswer(status: status.code, contentType: "application/json; charset=utf-8", body: bytes)
    }
}

extension Response {
    /// An answer as kept; `replayed` when it is given again to a repeat.
    init(_ answer: StoredAnswer, replayed: Bool = false) {
        var headers: HTTPFields = [.contentType: answer.contentType]
        if replayed { headers[IdempotentRequests.replayedHeader] = "true" }
        self.init(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
