import Hummingbird
import ServiceLifecycle

/// `GET /api/live`: server-sent events of every change, starting with the state as it is now.
struct LiveRoutes {
    let live: LiveUpdates
    let juiceBar: JuiceBarService
    let vending: VendingService

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.get("live", use: events)
    }

    @Sendable func events(_ request: Request, context: ShopRequestContext) async throws -> Response {
        // Subscribe before reading the current state, so no change can fall between the two:
        // a page that rendered a moment ago still catches up with what changed since.
        let events = live.subscribe()
        let current = juiceBar.currentStockEvent.serverSentEvent + (try await juiceBar.currentQueueEvent()).serverSentEvent
            + (try await vending.currentEvent()).serverSentEvent
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n" + current))
                for await event in events.cancelOnGracefulShutdown() {
                    try await writer.write(ByteBuffer(string: event.serverSentEvent))
                }
                try await writer.finish(nil)
            })
    }
}
