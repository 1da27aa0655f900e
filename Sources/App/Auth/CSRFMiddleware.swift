import Hummingbird
import ShopBasics

/// Checks the anti-CSRF token (`CSRFToken`) of every state-changing request that a cookie gives
/// authority to, on top of `CrossSiteMiddleware`'s Origin check (a browser that leaves Origin
/// out, or a page of the same site, meets this one):
/// - a page route (`POST /login`, `/signup`, `/logout`, `/home/…`, any page form to come): always,
///   against the session's token, or the pre-session cookie's before sign-in (login CSRF). The
///   token comes in the form's `csrf_token` field or the `X-CSRF-Token` header. Refused: a 403
///   page in the form's language, nothing done.
/// - the JSON API under `/api`: when a browser sends the request (it names its context in
///   `Sec-Fetch-Site`, or its `Origin`) with a live session cookie, in the `X-CSRF-Token` header;
///   refused with 403 `csrf_token`. A forged request is always a victim's browser's, so an API
///   client of its own (curl, a till's app: neither header) keeps working with its cookie alone,
///   as before. A request without a session (a guest's order, a client before it signs in) has
///   no authority a forged request could borrow, and goes on untouched: the hot order path pays
///   one comparison.
/// Around every page route it also sets the token the page draws (`CSRFToken.page`) and, for a
/// visitor not signed in whose page drew it, the pre-session cookie it is made from.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let session = context.account == nil ? nil : context.sessionToken
        let changesState = ![.get, .head, .options].contains(request.method)
        if Self.isAPI(request.uri.path) {
            guard changesState, let session, Self.isBrowsers(request) else { return try await next(request, context) }
            guard let sent = request.headers[.csrfToken], CSRFToken.isValid(sent, for: session) else {
                throw APIError(.forbidden, "csrf_token", .csrfToken)
            }
            return try await next(request, context)
        }
        let secret = session ?? CSRFToken.preSessionSecret(in: request, context)
        guard changesState else { return try await drawingPages(request, context, secret: secret, signedIn: session != nil, next) }
        var request = request
        let sent = await Self.sentToken(in: &request)
        guard let secret, let token = sent.token, CSRFToken.isValid(token, for: secret) else {
            let language = sent.language.flatMap(Language.init(rawValue:)) ?? context.language
            context.logger.notice("refused a page's request without its anti-CSRF token",
                                  metadata: ["path": "\(request.uri.path)", "sent": "\(sent.token != nil)"])
            return try await drawingPages(request, context, secret: secret, signedIn: session != nil) { request, context in
                FormRefusedPage(language: language, account: context.account, request: request).render()
            }
        }
        return try await drawingPages(request, context, secret: secret, signedIn: session != nil, next)
    }

    /// `next` with the page token set, and the pre-session cookie when a page of a visitor not
    /// signed in drew it.
    func drawingPages(_ request: Request, _ context: Context, secret: String?, signedIn: Bool,
                      _ next: (Request, Context) async throws -> Response) async throws -> Response {
        let page = PageToken(secret: secret)
        var response = try await CSRFToken.$page.withValue(page) { try await next(request, context) }
        if !signedIn, let used = page.usedSecret {
            response.setCookie(CSRFToken.preSessionCookie(used, secure: context.isHTTPS))
        }
        return response
    }

    static func isAPI(_ path: String) -> Bool { path == "/api" || path.hasPrefix("/api/") }

    /// Whether a browser sent the request: every current one names the request's context in
    /// `Sec-Fetch-Site`, and one of any age its `Origin` on a write (`CrossSiteMiddleware`).
    static func isBrowsers(_ request: Request) -> Bool {
        request.headers[.secFetchSite] != nil || request.headers[.origin] != nil
    }

    /// What a page's request sent: the token from `X-CSRF-Token`, else from a URL-encoded form's
    /// `csrf_token` (the body read whole, and left on the request for its route), and the form's language.
    static func sentToken(in request: inout Request) async -> (token: String?, language: String?) {
        if let header = request.headers[.csrfToken] { return (header, nil) }
        guard let type = request.headers[.contentType]?.lowercased(), type.hasPrefix("application/x-www-form-urlencoded"),
              let buffer = try? await request.collectBody(upTo: Request.maximumJSONBody) else { return (nil, nil) }
        let form = try? URLEncodedFormDecoder().decode(TokenFields.self, from: String(buffer: buffer))
        return (form?.token, form?.lang)
    }

    /// The fields of a page form this middleware reads; the route reads the rest.
    struct TokenFields: Decodable {
        let token: String?
        let lang: String?

        enum CodingKeys: String, CodingKey {
            case token = "csrf_token", lang
        }
    }
}
