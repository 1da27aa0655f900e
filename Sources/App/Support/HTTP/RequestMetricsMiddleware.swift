import Hummingbird
import Metrics
import Synchronization

/// Counts every request and times it, under Hummingbird's own metric names and dimensions
/// (`hb.requests`, `http.server.request.duration`, `hb.request.errors`,
/// `http.server.active_requests`). Hummingbird's `MetricsMiddleware` wraps every answer's body in
/// a closure to time it to its last byte, and that closure makes NIO send the head and the body
/// in two writes, each an `await` on the connection's writer: two system calls and two trips to
/// the event loop per request where one does. An answer whose length is known is here timed when
/// the handler returns it (it is written in one go right after); only a body of unknown length —
/// the live stream, an export — is timed to its end, as Hummingbird does.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext

    private let metrics = MetricsByRoute()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let active = metrics.active(request.method)
        active.increment()
        do {
            var response = try await next(request, context)
            let route = metrics.route(context.endpointPath ?? "Unknown", request.method, response.status)
            guard response.body.contentLength == nil else {
                route.answered(after: ContinuousClock.now - start, active: active)
                return response
            }
            let body = response.body
            response.body = ResponseBody { writer in
                defer { route.answered(after: ContinuousClock.now - start, active: active) }
                try await body.write(writer)
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let route = metrics.route(context.endpointPath ?? "NotFound", request.method, status)
            route.failed.increment()
            route.answered(after: nil, active: active)
            throw error
        }
    }
}

/// The metrics of each route, method and status, made once: a swift-metrics value made per request
/// would ask the registry every time.
private final class MetricsByRoute: Sendable {
    struct Route: Sendable {
        let requests: Counter
        let duration: Timer
        let failed: Counter

        /// `elapsed`: nil for a request that failed, which is counted but not timed.
        func answered(after elapsed: Duration?, active: Meter) {
            requests.increment()
            if let elapsed {
                let (seconds, attoseconds) = elapsed.components
                duration.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            }
            active.decrement()
        }
    }

    private struct Key: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    private let routes = Mutex<[Key: Route]>([:])
    private let actives = Mutex<[HTTPRequest.Method: Meter]>([:])

    func active(_ method: HTTPRequest.Method) -> Meter {
        actives.withLock { actives in
            if let meter = actives[method] { return meter }
            let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
            actives[method] = meter
            return meter
        }
    }

    func route(_ route: String, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status) -> Route {
        let key = Key(route: route, method: method, status: status.code)
        return routes.withLock { routes in
            if let known = routes[key] { return known }
            let dimensions = [("http.route", route), ("http.request.method", method.rawValue),
                              ("http.response.status_code", String(status.code))]
            let made = Route(
                requests: Counter(label: "hb.requests", dimensions: dimensions),
                duration: Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds),
                failed: Counter(label: "hb.request.errors", dimensions: [
                    ("http.route", route), ("http.request.method", method.rawValue), ("error.type", String(status.code)),
                ]))
            routes[key] = made
            return made
        }
    }
}
