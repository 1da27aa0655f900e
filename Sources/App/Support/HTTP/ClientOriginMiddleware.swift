import HTTPTypes
import Hummingbird

/// Settles where a request comes from before anything uses it: the client's address (whose turn
/// it is to have a password checked, a guest's idempotency scope, the access log) and whether the
/// client is on HTTPS, directly or through a trusted proxy. Over HTTPS every answer carries
/// `Strict-Transport-Security`, and cookies are `Secure`.
struct ClientOriginMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext

    let proxies: TrustedProxies
    /// The server itself speaks TLS: every request is HTTPS.
    let servesHTTPS: Bool

    /// A year: browsers then go to HTTPS by themselves, even for a link written `http://`.
    static let strictTransportSecurity = "max-age=31536000"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let origin = proxies.origin(peer: context.peerAddress, headers: request.headers)
        context.clientAddress = origin.client
        context.isHTTPS = servesHTTPS || origin.scheme == "https"
        var response = try await next(request, context)
        if context.isHTTPS { response.headers[.strictTransportSecurity] = Self.strictTransportSecurity }
        return response
    }
}

extension HTTPField.Name {
    static let strictTransportSecurity = Self("Strict-Transport-Security")!
}
