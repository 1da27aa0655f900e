@testable import App
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Storage
import Synchronization
import Testing

/// `Idempotency-Key`: a repeat of a request never acts twice and gets the first answer again; a
/// key sent with another request is refused; a request the server failed (5xx) keeps no key.
@Suite struct IdempotencyTests {
    static let banana = #"{"juice":"bananaJuice","pickup":true}"#

    static func key(_ key: String) -> HTTPFields { [IdempotentRequests.header: key] }

    struct OrderAnswer: Decodable {
        struct Order: Decodable { let id: Int }
        let order: Order
        let stock: [String: Int]
        let version: Int
    }

    struct Listed: Decodable { let id: Int }

    @Test func aRepeatGetsTheFirstAnswerAgainAndOrdersOnce() async throws {
        try await TestShop().run { client in
            let first = try await client.json(.post, "/api/orders", Self.banana, headers: Self.key("tap-1"))
            #expect(first.status == .created)
            #expect(first.headers[IdempotentRequests.replayedHeader] == nil)

            let again = try await client.json(.post, "/api/orders", Self.banana, headers: Self.key("tap-1"))

            #expect(again.status == first.status)
            #expect(again.text == first.text)
            #expect(again.headers[.contentType] == first.headers[.contentType])
            #expect(again.headers[IdempotentRequests.replayedHeader] == "true")
            let ordered = try first.decode(OrderAnswer.self)
            #expect(try await client.json(.get, "/api/orders").decode([Listed].self).map(\.id) == [ordered.order.id])
            #expect(try await client.json(.get, "/api/queue").decode([Listed].self).map(\.id) == [ordered.order.id])
            // The fruit was taken once: the stock is still what the first answer said.
            #expect(try await client.json(.get, "/api/stock").decode([String: Int].self) == ordered.stock)
        }
    }

    @Test func aRefusalIsAnAnswerTooAndIsGivenAgainAfterTheStockArrives() async throws {
        try await TestShop().run { client in
            let strawberry = #"{"juice":"strawberryJuice"}"#
            let refused = try await client.json(.post, "/api/orders", strawberry, headers: Self.key("tap-2"))
            #expect(refused.status == .conflict)
            #expect(try refused.decode(ErrorBody.self).error == "out_of_stock")
            let staff = try await client.staffCookie()
            #expect(try await client.json(.put, "/api/stock/strawberry", #"{"count":100}"#, cookie: staff).status == .ok)

            let again = try await client.json(.post, "/api/orders", strawberry, headers: Self.key("tap-2"))

            #expect(again.status == .conflict)
            #expect(again.text == refused.text)
            #expect(again.headers[IdempotentRequests.replayedHeader] == "true")
            #expect(try await client.json(.get, "/api/orders").text == "[]")
            #expect(try await client.json(.post, "/api/orders", strawberry, headers: Self.key("tap-3")).status == .created)
        }
    }

    @Test func twoKeysInOneRequestAre400AndOrderNothing() async throws {
        try await TestShop().run { client in
            var headers = Self.key("tap-5")
            headers.append(HTTPField(name: IdempotentRequests.header, value: "tap-6"))

            let refused = try await client.json(.post, "/api/orders", Self.banana, headers: headers)

            #expect(refused.status == .badRequest)
            #expect(try refused.decode(ErrorBody.self).error == "invalid_idempotency_key")
            #expect(try await client.json(.get, "/api/orders").text == "[]")
            #expect(try await client.json(.post, "/api/orders", Self.banana, headers: Self.key("tap-5")).status == .created)
        }
    }

    /// The request a key was kept for is stored whole: a retry of a body with a NUL byte in it
    /// (refused, 400) is that request again, not another one (422) whose text ended at the NUL.
    @Test func aRetryOfABodyWithANulByteIsReplayed() async throws {
        try await TestShop().run { client in
            let body = "{\"juice\":\"banana\u{0}Juice\"}"
            let first = try await client.json(.post, "/api/orders", body, headers: Self.key("tap-7"))
            #expect(first.status == .badRequest)

            let again = try await client.json(.post, "/api/orders", body, headers: Self.key("tap-7"))

            #expect(again.status == .badRequest)
            #expect(again.text == first.text)
            #expect(again.headers[IdempotentRequests.replayedHeader] == "true")
        }
    }

    @Test func theSameKeyWithAnotherBodyOrRouteIs422AndDoesNothing() async throws {
        try await TestShop().run { client in
            let first = try await client.json(.post, "/api/orders", Self.banana, headers: Self.key("tap-4"))
            #expect(first.status == .created)
            let vendingBefore = try await client.json(.get, "/api/vending").text

            for (uri, body) in [("/api/orders", #"{"juice":"kiwiJuice","pickup":true}"#),
                                ("/api/orders", #"{"juice":"bananaJuice"}"#),
                                ("/api/vending/money", #"{"amount":1000}"#)] {
                let reused = try await client.json(.post, uri, body, headers: Self.key("tap-4"))
                #expect(reused.status == .unprocessableContent, "\(uri) \(body)")
                #expect(try reused.decode(ErrorBody.self).error == "idempotency_key_reused", "\(uri) \(body)")
                #expect(reused.headers[IdempotentRequests.replayedHeader] == nil)
            }

            let ordered = try first.decode(OrderAnswer.self)
            #expect(try await client.json(.get, "/api/orders").decode([Listed].self).map(\.id) == [ordered.order.id])
            #expect(try await client.json(.get, "/api/stock").decode([String: Int].self) == ordered.stock)
            #expect(try await client.json(.get, "/api/vending").text == vendingBefore)
            // The refusals spoiled nothing: the first request's repeat still gets its answer.
            let again = try await client.json(.post, "/api/orders", Self.banana, headers: Self.key("tap-4"))
            #expect(again.status == .created && again.text == first.text)
        }
    }

    struct Moved: Decodable, Equatable {
        let id: Int
        let status: String
    }

    @Test func aRepeatedMoveOrCancelReplaysItsAnswerAndActsOnce() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let order = try await client.json(.post, "/api/orders", Self.banana).decode(OrderAnswer.self).order.id
            let making = #"{"status":"making"}"#
            let moved = try await client.json(.post, "/api/orders/\(order)/status", making, cookie: staff,
                                              headers: Self.key("move-1"))
            #expect(moved.status == .ok)
            #expect(moved.headers[IdempotentRequests.replayedHeader] == nil)
            // A move back is refused, and the refusal is kept with its key too.
            let back = try await client.json(.post, "/api/orders/\(order)/status", #"{"status":"received"}"#,
                                             cookie: staff, headers: Self.key("move-2"))
            #expect(back.status == .conflict)

            for (key, body, first) in [("move-1", making, moved), ("move-2", #"{"status":"received"}"#, back)] {
                let again = try await client.json(.post, "/api/orders/\(order)/status", body, cookie: staff,
                                                  headers: Self.key(key))
                #expect(again.status == first.status && again.text == first.text, "\(key)")
                #expect(again.headers[IdempotentRequests.replayedHeader] == "true", "\(key)")
            }
            let reused = try await client.json(.post, "/api/orders/\(order)/status", #"{"status":"ready"}"#,
                                               cookie: staff, headers: Self.key("move-1"))
            #expect(reused.status == .unprocessableContent)
            #expect(try reused.decode(ErrorBody.self).error == "idempotency_key_reused")
            #expect(try await client.json(.get, "/api/orders/\(order)").decode(Moved.self).status == "making")

            let stock = try await client.json(.get, "/api/stock").text
            let cancelled = try await client.json(.post, "/api/orders/\(order)/cancel", cookie: staff,
                                                  headers: Self.key("cancel-1"))
            #expect(try cancelled.decode(Moved.self) == Moved(id: order, status: "cancelled"))
            let fruitBack = try await client.json(.get, "/api/stock").text
            #expect(fruitBack != stock)
            // A second cancel would be 409: the repeat is the first answer, and the fruit went back once.
            let again = try await client.json(.post, "/api/orders/\(order)/cancel", cookie: staff,
                                              headers: Self.key("cancel-1"))
            #expect(again.status == .ok && again.text == cancelled.text)
            #expect(again.headers[IdempotentRequests.replayedHeader] == "true")
            #expect(try await client.json(.get, "/api/stock").text == fruitBack)
            let otherBody = try await client.json(.post, "/api/orders/\(order)/status", making, cookie: staff,
                                                  headers: Self.key("cancel-1"))
            #expect(otherBody.status == .unprocessableContent)
        }
    }

    /// How the server fails a request, as the error its work throws and the answer's status and code.
    enum ServerFailure: String, CaseIterable, Sendable {
        /// The database could not take the write in time (PostgreSQL's busy pool, say).
        case databaseBusy
        /// An error no route expects: a bug.
        case bug

        struct Bug: Error {}

        var error: any Error {
            switch self {
            case .databaseBusy: StorageError.busy("the shop's database is busy; try again")
            case .bug: Bug()
            }
        }

        var answer: (status: HTTPResponse.Status, code: String) {
            switch self {
            case .databaseBusy: (.serviceUnavailable, "busy")
            case .bug: (.internalServerError, "internal")
            }
        }
    }

    @Test(arguments: ServerFailure.allCases)
    func aRequestTheServerFailedKeepsNoKeySoItsRetryActs(failure: ServerFailure) async throws {
        let work = Work(failingFirst: failure.error)
        try await KeyedRoute.run(work) { client in
            let failed = try await client.tap("retry-1")
            #expect(failed.status == failure.answer.status)
            #expect(try failed.decode(ErrorBody.self).error == failure.answer.code)

            let retried = try await client.tap("retry-1")

            #expect(retried.status == .created)
            #expect(retried.text == #"{"attempt":2}"#)
            #expect(retried.headers[IdempotentRequests.replayedHeader] == nil)
            // Once answered, the key is kept as usual.
            let again = try await client.tap("retry-1")
            #expect(again.status == .created && again.text == retried.text)
            #expect(again.headers[IdempotentRequests.replayedHeader] == "true")
            #expect(work.attempts == 2)
        }
    }

    @Test func aRequestRefusedWith4xxKeepsItsKeyAndIsNotDoneAgain() async throws {
        let work = Work(failingFirst: APIError.forbidden)
        try await KeyedRoute.run(work) { client in
            let refused = try await client.tap("refused-1")
            #expect(refused.status == .forbidden)

            let again = try await client.tap("refused-1")

            #expect(again.status == .forbidden && again.text == refused.text)
            #expect(again.headers[IdempotentRequests.replayedHeader] == "true")
            #expect(work.attempts == 1)
        }
    }

    @Test func aRepeatWhileTheFirstIsStillActingWaitsForItsAnswer() async throws {
        let work = Work(failingFirst: nil, holdingFirst: true)
        try await KeyedRoute.run(work) { client, idempotent in
            async let first = client.tap("slow-1")
            try await within(seconds: 10, "the first request to start acting") { await work.firstStarted() }
            async let second = client.tap("slow-1")
            try await within(seconds: 10, "the repeat to wait for the key in flight") {
                while idempotent.inFlight.waiting == 0 { try await Task.sleep(for: .milliseconds(5)) }
            }
            work.releaseFirst()

            // Both end within `IdempotentRequests.patience`: the repeat is told to try later after it.
            let (firstAnswer, secondAnswer) = try await (first, second)
            #expect(firstAnswer.status == .created && firstAnswer.text == #"{"attempt":1}"#)
            #expect(secondAnswer.status == .created && secondAnswer.text == firstAnswer.text)
            #expect(secondAnswer.headers[IdempotentRequests.replayedHeader] == "true")
            #expect(work.attempts == 1)
        }
    }
}

/// The work behind a keyed route, as the test decides it: the first attempt may fail with
/// `failingFirst` or be held until the test releases it; every other attempt answers
/// 201 `{"attempt":n}`.
final class Work: Sendable {
    private let failingFirst: (any Error)?
    private let holdingFirst: Bool
    private let count = Mutex(0)
    private let started: AsyncStream<Void>
    private let start: AsyncStream<Void>.Continuation
    private let released: AsyncStream<Void>
    private let release: AsyncStream<Void>.Continuation

    init(failingFirst: (any Error)?, holdingFirst: Bool = false) {
        self.failingFirst = failingFirst
        self.holdingFirst = holdingFirst
        (started, start) = AsyncStream.makeStream(of: Void.self)
        (released, release) = AsyncStream.makeStream(of: Void.self)
    }

    var attempts: Int { count.withLock { $0 } }

    func firstStarted() async { _ = await started.first { _ in true } }

    func releaseFirst() { release.finish() }

    func callAsFunction() async throws -> StoredAnswer {
        let attempt = count.withLock { count in
            count += 1
            return count
        }
        if attempt == 1 {
            start.finish()
            if holdingFirst { _ = await released.first { _ in true } }
            if let failingFirst { throw failingFirst }
        }
        return StoredAnswer(status: 201, contentType: "application/json", body: Array(#"{"attempt":\#(attempt)}"#.utf8))
    }
}

/// One route, `POST /tap`, that does `Work` behind the server's own `IdempotentRequests` and
/// `ErrorMiddleware`, on a real SQLite store: the way to have a keyed request fail as a server can.
enum KeyedRoute {
    static func run(
        _ work: Work, _ test: @escaping @Sendable (any TestClientProtocol, IdempotentRequests) async throws -> Void
    ) async throws {
        let shop = try TestShop()
        defer { try? FileManager.default.removeItem(at: shop.folder) }
        let database = try await ShopDatabase.open(shop.databasePath)
        let menu = try await database.juiceBar.menu()
        let idempotent = IdempotentRequests(store: database.idempotency, menu: { menu }, now: { [clock = shop.clock] in clock.now })
        let router = Router(context: ShopRequestContext.self)
        router.add(middleware: ErrorMiddleware(menu: { menu }))
        router.post("tap") { request, context in
            try await idempotent.handle(request, context: context, answering: { $0 }, lookup: .before) { _, _, _ in
                try await work()
            }
        }
        // The failures are the test's own: they need not be logged as the bugs they would be.
        var quiet = Logger(label: "keyed-route")
        quiet.logLevel = .critical
        try await Application(router: router, logger: quiet).test(.router) { client in try await test(client, idempotent) }
    }

    static func run(_ work: Work, _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await run(work) { client, _ in try await test(client) }
    }
}

extension TestClientProtocol {
    /// `POST /tap` with `key`, as a client's tap.
    func tap(_ key: String) async throws -> TestResponse {
        try await json(.post, "/tap", "{}", headers: IdempotencyTests.key(key))
    }
}

/// A wait that took longer than a test allows.
private struct TimedOut: Error, CustomStringConvertible {
    let waitingFor: String
    var description: String { "timed out waiting for \(waitingFor)" }
}

/// Waits for `work` at most `seconds`, so a test that waits for the server fails instead of
/// hanging when what it waits for never comes. `work` is cancelled when the time is up.
private func within<Value: Sendable>(
    seconds: Double, _ waitingFor: String, _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let value = try await group.next()! else { throw TimedOut(waitingFor: waitingFor) }
        return value
    }
}
