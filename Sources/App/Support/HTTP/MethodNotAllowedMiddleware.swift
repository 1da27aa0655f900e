import Hummingbird
import Synchronization

/// The routes the server has, by path, so that a known path asked with a method it lacks gets
/// 405 with `Allow`, not 404. Filled once the routes are added.
final class RouteTable: Sendable {
    private let routes = Mutex<[(segments: [Substring], methods: Set<HTTPRequest.Method>)]>([])

    func load<Context>(_ router: Router<Context>) {
        var byPath: [String: Set<HTTPRequest.Method>] = [:]
        for route in router.routes { byPath["\(route.path)", default: []].insert(route.method) }
        routes.withLock { routes in
            routes = byPath.map { (path, methods) in (path.split(separator: "/"), methods) }
        }
    }

    /// The methods of the routes matching `path` (a parameter, `{id}`, matches any segment);
    /// nil when none does. As the router does, a route naming a segment outright wins over one
    /// with a parameter there: `/api/stock/low` is only the route written so, not `/api/stock/{fruit}`.
    func methods(for path: String) -> Set<HTTPRequest.Method>? {
        let asked = path.split(separator: "/")
        let matching = routes.withLock { routes in
            routes.filter { route in
                route.segments.count == asked.count
                    && zip(route.segments, asked).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
            }
        }
        func parameters(_ segments: [Substring]) -> [Bool] { segments.map { $0.hasPrefix("{") } }
        guard let mostSpecific = matching.map({ parameters($0.segments) })
            .min(by: { $0.lexicographicallyPrecedes($1) { !$0 && $1 } }) else { return nil }
        return matching.filter { parameters($0.segments) == mostSpecific }.reduce(into: []) { $0.formUnion($1.methods) }
    }
}

struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let table: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let methods = table.methods(for: request.uri.path), !methods.contains(request.method) else { throw error }
            var refusal = APIError(.methodNotAllowed, "method_not_allowed", .methodNotAllowed)
            refusal.headers[.allow] = methods.map(\.rawValue).sorted().joined(separator: ", ")
            throw refusal
        }
    }
}
