import Hummingbird
import Logging
import NIOCore

/// One structured log line per request, written when the answer is known: the client (through
/// trusted proxies), method, path, status and how long it took.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        context.logger.info("request", metadata: [
            "client": .string(context.clientAddress),
            "method": .string(request.method.rawValue),
            "path": .string(request.uri.path),
            "status": .string(String(response.status.code)),
            "ms": .string(String((milliseconds * 100).rounded() / 100)),
        ])
        return response
    }
}
