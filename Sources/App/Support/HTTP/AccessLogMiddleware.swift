import Hummingbird
import Logging
import NIOCore

/// One log line per request, written when the answer is known: the client (through trusted
/// proxies), Hummingbird's request id (which the request's other lines carry too), method, path,
/// status and how long it took. At the request logger's `info` level, in the shop log's format,
/// but written straight to the log's lines: through swift-log (its metadata dictionaries, their
/// merge and the handler's existential) the line was a large share of `GET /health`'s server CPU
/// (`perf` samples per request with and without `--log-level error`; see docs/performance.md).
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext
    let lines: LogLines

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.logger.logLevel <= .info else { return try await next(request, context) }
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        lines.append(level: .info, label: context.logger.label, fields: [
            (key: "client", value: context.clientAddress),
            (key: "hb.request.id", value: context.id),
            (key: "method", value: request.method.rawValue),
            (key: "ms", value: Self.milliseconds(elapsed)),
            (key: "path", value: request.uri.path),
            (key: "status", value: String(response.status.code)),
        ], source: "App", message: "request")
        return response
    }

    /// The time taken in milliseconds to two places ("0.11"), from whole numbers: formatting a
    /// `Double` showed in `perf` for every request.
    static func milliseconds(_ elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        let hundredths = seconds * 100_000 + (attoseconds + 5_000_000_000_000) / 10_000_000_000_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
