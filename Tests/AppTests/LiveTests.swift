import App
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import Testing

/// `GET /api/live`: a new listener first gets the state as it is (stock, queue, vending), then
/// every change as it is made.
@Suite struct LiveTests {
    struct StockEvent: Decodable, Equatable {
        let stock: [String: Int]
        let version: Int
        let low: [String]
    }

    struct QueueEntry: Decodable { let id: Int; let number: Int; let juice: String; let status: String }

    struct Machine: Decodable, Equatable { let balance: Int; let version: Int }

    @Test func aNewListenerGetsTheStreamHeadersAndTheStateAsItIsFirst() async throws {
        try await TestShop().runListening { client, live in
            let staff = try await client.staffCookie()
            try await client.json(.put, "/api/stock/kiwi/level", #"{"level":12}"#, cookie: staff)
            let ordered = try await client.json(.post, "/api/orders", #"{"juice":"bananaJuice","pickup":true}"#)
            let machine = try await client.json(.get, "/api/vending").decode(Machine.self)

            try await live.listen("/api/live") { head, events in
                #expect(head.status == .ok)
                #expect(head.headerFields[.contentType] == "text/event-stream")
                #expect(head.headerFields[.cacheControl] == "no-cache")
                #expect(try await events.nextMessage() == ["retry": "1000"])

                let order = try ordered.decode(IdempotencyTests.OrderAnswer.self)
                let stock = try await events.next()
                #expect(stock.name == "stock")
                #expect(try stock.decode(StockEvent.self) == StockEvent(stock: order.stock, version: order.version, low: ["kiwi"]))

                let queue = try await events.next()
                #expect(queue.name == "queue")
                #expect(try queue.decode([QueueEntry].self).map(\.id) == [order.order.id])
                #expect(try queue.decode([QueueEntry].self).first?.status == "received")

                let vending = try await events.next()
                #expect(vending.name == "vending")
                #expect(try vending.decode(Machine.self) == machine)
            }
        }
    }

    @Test func aStockChangeAfterConnectingArrivesAsAStockEvent() async throws {
        try await TestShop().runListening { client, live in
            let staff = try await client.staffCookie()
            try await live.listen("/api/live") { _, events in
                let before = try await events.next()
                #expect(before.name == "stock")

                let edit = try await client.json(.put, "/api/stock/kiwi", #"{"count":3}"#, cookie: staff)
                #expect(edit.status == .ok)

                let changed = try await events.next(named: "stock")
                let stock = try changed.decode(StockEvent.self)
                #expect(stock.stock["kiwi"] == 3)
                #expect(stock.stock == (try await client.json(.get, "/api/stock").decode([String: Int].self)))
                #expect(stock.version > (try before.decode(StockEvent.self).version))
            }
        }
    }

    @Test func anOrderForPickupAfterConnectingArrivesInAQueueEvent() async throws {
        try await TestShop().runListening { client, live in
            try await live.listen("/api/live") { _, events in
                _ = try await events.next(named: "vending")

                let ordered = try await client.json(.post, "/api/orders", #"{"juice":"kiwiJuice","pickup":true}"#)
                #expect(ordered.status == .created)

                // The queue is read again for listeners after the order (and when the change feed notices
                // its commit); a read from before it may come first.
                let queue = try await events.next(named: "queue") { event in
                    !(try event.decode([QueueEntry].self).isEmpty)
                }
                #expect(try queue.decode([QueueEntry].self).map(\.juice) == ["kiwiJuice"])
            }
        }
    }
}

extension TestShop {
    /// Runs the shop as `run` does, giving the test a `LiveListener` on the same server too.
    func runListening(_ test: @escaping @Sendable (any TestClientProtocol, LiveListener) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await buildApplication(configuration)
        let listener = try await LiveListener(app)
        try await app.test(.router) { client in try await test(client, listener) }
    }
}

/// Opens a request whose answer never ends, the live stream, on the application's own
/// responder, and reads the answer's body as the server writes it. (The router test client
/// would wait for the body's end, which never comes.)
struct LiveListener: Sendable {
    private let respond: @Sendable (Request) async throws -> Response
    /// How long a test waits for an event before failing.
    static let patience: Double = 10

    init<App: ApplicationProtocol>(_ app: App) async throws {
        let responder = try await app.responder
        let logger = app.logger
        respond = { request in
            let context = App.Context(source: .init(channel: NIOAsyncTestingChannel(), logger: logger))
            return try await responder.respond(to: request, context: context)
        }
    }

    /// Sends `GET uri` and has `read` read the answer's events; the request ends (as when a page
    /// is closed) once `read` returns, or after `patience` with the stream ended under it.
    func listen(_ uri: String, _ read: (HTTPResponse, ServerSentEvents) async throws -> Void) async throws {
        let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: uri),
                              body: RequestBody(buffer: ByteBuffer()))
        // The route subscribes before it answers: every change made from now on is sent.
        let response = try await respond(request)
        let (chunks, written) = AsyncStream.makeStream(of: ByteBuffer.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { written.finish() }
                try await response.body.write(ChunkWriter(written: written))
            }
            group.addTask {
                try await Task.sleep(for: .seconds(Self.patience))
                written.finish()
            }
            defer { group.cancelAll() }
            try await read(response.head, ServerSentEvents(chunks))
        }
    }

    private struct ChunkWriter: ResponseBodyWriter {
        let written: AsyncStream<ByteBuffer>.Continuation

        mutating func write(_ buffer: ByteBuffer) async throws { written.yield(buffer) }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws { written.finish() }
    }
}

/// A stream of server-sent events, read message by message as the chunks arrive.
final class ServerSentEvents {
    struct StreamEnded: Error, CustomStringConvertible {
        let received: String
        var description: String { "the stream ended (or nothing came in time); it had sent:\n\(received)" }
    }

    /// One event: its name and its JSON data.
    struct Event {
        let name: String
        let data: String

        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            try JSONDecoder().decode(Value.self, from: Data(data.utf8))
        }
    }

    private var chunks: AsyncStream<ByteBuffer>.AsyncIterator
    /// Text received and not yet read as messages.
    private var unread = ""
    /// Everything received, for the message when the stream ends too soon.
    private var received = ""

    init(_ chunks: AsyncStream<ByteBuffer>) {
        self.chunks = chunks.makeAsyncIterator()
    }

    /// The next message's fields (`event`, `data`, `retry`; a comment has none).
    func nextMessage() async throws -> [String: String] {
        while true {
            if let end = unread.range(of: "\n\n") {
                let message = unread[..<end.lowerBound]
                unread.removeSubrange(..<end.upperBound)
                return Self.fields(of: message)
            }
            guard let chunk = await chunks.next() else { throw StreamEnded(received: received) }
            unread += String(buffer: chunk)
            received += String(buffer: chunk)
        }
    }

    /// The next event, past comments (the heartbeat).
    func next() async throws -> Event {
        while true {
            let fields = try await nextMessage()
            if let name = fields["event"] { return Event(name: name, data: fields["data"] ?? "") }
        }
    }

    /// The next event named `name` for which `matches` holds, past any other.
    func next(named name: String, where matches: (Event) throws -> Bool = { _ in true }) async throws -> Event {
        while true {
            let event = try await next()
            if event.name == name, try matches(event) { return event }
        }
    }

    private static func fields(of message: Substring) -> [String: String] {
        var fields: [String: String] = [:]
        for line in message.split(separator: "\n") where !line.hasPrefix(":") {
            let parts = line.split(separator: ":", maxSplits: 1)
            let name = String(parts[0])
            let value = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
            // A field given on several lines (`data`, say) is its lines joined.
            fields[name] = fields[name].map { $0 + "\n" + value } ?? value
        }
        return fields
    }
}
