import Hummingbird

/// Refuses state-changing requests sent by another site's page: one whose `Origin` (or, lacking
/// it, `Referer`) names a different host than the request's own gets 403. API clients that send
/// neither header keep working with their session cookie.
struct CrossSiteMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard ![.get, .head, .options].contains(request.method) else { return try await next(request, context) }
        if let claimed = request.headers[.origin] ?? request.headers[.referer] {
            guard let host = request.head.authority, Self.host(of: claimed) == host.lowercased() else {
                throw APIError(.forbidden, "cross_site", .crossSite)
            }
        }
        return try await next(request, context)
    }

    /// `host[:port]` of an origin or URL, lowercased; nil when it has none.
    static func host(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        return rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
    }
}
