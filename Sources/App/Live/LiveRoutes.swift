import Hummingbird
import NIOCore
import ServiceLifecycle
import Synchronization

/// `GET /api/live`: server-sent events of every change, starting with the state as it is now.
///
/// A shop holds thousands of these open, mostly idle, so each holds little: the events it writes
/// are the broadcaster's shared buffers, its opening state is let go once written, it ends on the
/// server's graceful shutdown through a registered handler (no task of its own), and its answer is
/// made on a task of its own (`LiveStreamResponder`).
struct LiveRoutes {
    static let path = "/api/live"

    let live: LiveUpdates
    let juiceBar: JuiceBarService
    let vending: VendingService

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.get("live", use: events)
    }

    @Sendable func events(_ request: Request, context: ShopRequestContext) async throws -> Response {
        // Subscribe before reading the current state, so no change can fall between the two:
        // a page that rendered a moment ago still catches up with what changed since.
        let subscription = live.subscribe()
        let opening = WrittenOnce(try await openingMessage())
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                if let opening = opening.take() { try await writer.write(opening) }
                try await withGracefulShutdownHandler {
                    for await event in subscription.events {
                        try await writer.write(event.bytes)
                    }
                } onGracefulShutdown: {
                    subscription.end()
                }
                try await writer.finish(nil)
            })
    }

    /// The reconnection delay and the state as it is now (stock, queue, vending), in one write.
    private func openingMessage() async throws -> ByteBuffer {
        let current = [juiceBar.currentStockEvent, try await juiceBar.currentQueueEvent(), try await vending.currentEvent()]
        var message = ByteBuffer(string: "retry: 1000\n\n")
        message.reserveCapacity(message.readableBytes + current.reduce(0) { $0 + $1.bytes.readableBytes })
        for event in current {
            message.writeImmutableBuffer(event.bytes)
        }
        return message
    }
}

/// Bytes a long-lived answer writes once, first, and then no longer holds.
final class WrittenOnce: Sendable {
    private let bytes: Mutex<ByteBuffer?>

    init(_ bytes: ByteBuffer) {
        self.bytes = Mutex(bytes)
    }

    /// The bytes the first time, nil after.
    func take() -> ByteBuffer? {
        bytes.withLock { bytes in
            defer { bytes = nil }
            return bytes
        }
    }
}

/// Makes the answer to `GET /api/live` on a child task, and every other answer as the router does.
///
/// A task keeps the memory its deepest call needed (its allocator's slabs) until it ends, and a
/// connection's task lasts as long as the connection. Making the answer on it, through the whole
/// middleware chain and the state's reads, left every open stream holding ~30 KB for a depth it
/// reached once; on a child task that memory goes back as soon as the answer is made, and the
/// connection's task only writes the stream, a few calls deep.
struct LiveStreamResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == ShopRequestContext {
    let inner: Inner

    func respond(to request: Request, context: ShopRequestContext) async throws -> Response {
        guard request.uri.path == LiveRoutes.path else { return try await inner.respond(to: request, context: context) }
        // Not `async let`: its child is allocated on the parent's allocator, whose slab would stay.
        return try await Task { try await inner.respond(to: request, context: context) }.value
    }
}
