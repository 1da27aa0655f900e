import Foundation
import Hummingbird
import JuiceBar
import NIOCore
import Storage
import Synchronization

/// Requests that must never act twice: an order, money put in, a purchase. A client sends an
/// `Idempotency-Key` with each tap and the same key when it retries; the first request with a
/// key acts and its answer is kept, and every repeat within a day (per account, or per address
/// for guests) gets that answer again, same status and body, also while the first is still being
/// handled on this server or another.
struct IdempotentRequests: Sendable {
    let store: any IdempotencyStore
    let menu: @Sendable () -> Menu
    let now: @Sendable () -> Date

    static let header = HTTPFields.Element.Name("Idempotency-Key")!
    /// Set on an answer given again.
    static let replayedHeader = HTTPFields.Element.Name("Idempotent-Replayed")!
    /// How long a repeat waits for the first request's answer before it is told to try later.
    static let patience: Duration = .seconds(10)

    /// Runs `act` once per key; a request without the header simply runs it.
    func handle(
        _ request: Request, context: ShopRequestContext,
        _ act: (Request, ShopRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let key = request.headers[Self.header] else { return try await act(request, context) }
        guard Self.isValid(key) else {
            throw APIError(.badRequest, "invalid_idempotency_key", .invalidIdempotencyKey)
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Request.maximumJSONBody)
        } catch {
            throw APIError(.contentTooLarge, "too_large", .tooLarge)
        }
        request.body = .init(buffer: body)
        let scope = context.account.map { "account:\($0.id)" } ?? "guest:\(context.clientAddress)"
        let asked = "\(request.method) \(request.uri.path)\n\(String(buffer: body))"
        let giveUp = ContinuousClock.now + Self.patience
        claiming: while true {
            switch try await store.claim(scope: scope, key: key, request: asked, at: now()) {
            case .acquired:
                break claiming
            case .answered(let answer):
                return Self.replay(answer)
            case .mismatch:
                throw APIError(.unprocessableContent, "idempotency_key_reused", .idempotencyKeyReused)
            case .pending:
                guard ContinuousClock.now < giveUp else {
                    throw APIError(.conflict, "request_in_progress", .requestInProgress).retrying(after: 1)
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let response: Response
        do {
            response = try await act(request, context)
        } catch {
            let refusal = APIError(error)
            guard refusal.status.code < 500 else {
                // Nothing was done: a retry with the same key may act.
                try? await store.release(scope: scope, key: key)
                throw error
            }
            response = refusal.response(in: context.language, menu: menu())
        }
        let answer = try await Self.keep(response)
        try await store.complete(scope: scope, key: key, with: answer)
        // The body was read to be kept; it is sent from what was kept.
        return Response(status: response.status, headers: response.headers,
                        body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    /// A key is 1 to 255 visible ASCII characters (a UUID, typically).
    static func isValid(_ key: String) -> Bool {
        (1...255).contains(key.utf8.count) && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    private static func replay(_ answer: StoredAnswer) -> Response {
        Response(status: .init(code: answer.status),
                 headers: [.contentType: answer.contentType, Self.replayedHeader: "true"],
                 body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    /// The answer's status, type and whole body (the API's answers are small JSON).
    private static func keep(_ response: Response) async throws -> StoredAnswer {
        let collected = Collected()
        try await response.body.write(CollectingWriter(collected: collected))
        return StoredAnswer(status: response.status.code, contentType: response.headers[.contentType] ?? "",
                            body: collected.bytes.withLock { $0 })
    }

    private final class Collected: Sendable {
        let bytes = Mutex<[UInt8]>([])
    }

    private struct CollectingWriter: ResponseBodyWriter {
        let collected: Collected

        mutating func write(_ buffer: ByteBuffer) async throws {
            collected.bytes.withLock { $0.append(contentsOf: buffer.readableBytesView) }
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
