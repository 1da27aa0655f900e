import Hummingbird
import Membership

/// Finds who is signed in from the session cookie and puts the account on the context.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext
    let accounts: AccountService

    static let cookieName = "juicemaker_session"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let token = request.cookies[Self.cookieName(secure: context.isHTTPS)]?.value, !token.isEmpty {
            context.sessionToken = token
            context.account = try await accounts.account(sessionToken: token)
        }
        return try await next(request, context)
    }

    /// Over HTTPS the name carries `__Host-`: a browser keeps such a cookie only when it is
    /// `Secure`, for this host alone and path `/`, so neither a plain-HTTP answer nor another
    /// site of the domain can plant a session.
    static func cookieName(secure: Bool) -> String { secure ? "__Host-" + cookieName : cookieName }

    /// The cookie that carries a session: out of reach of scripts, not sent on cross-site posts,
    /// and over HTTPS sent over HTTPS only.
    static func cookie(token: String, secure: Bool) -> Cookie {
        Cookie(name: cookieName(secure: secure), value: token, maxAge: Int(AccountService.sessionLifetime), path: "/",
               secure: secure, httpOnly: true, sameSite: .lax)
    }

    static func expiredCookie(secure: Bool) -> Cookie {
        Cookie(name: cookieName(secure: secure), value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true,
               sameSite: .lax)
    }
}

extension AccountService {
    /// Starts a session for `account` and sets its cookie on `response`: what a sign-in answers.
    /// Returns the session's token.
    @discardableResult
    func startSession(for account: Account, of context: ShopRequestContext, on response: inout Response) async throws -> String {
        let token = try await startSession(for: account)
        response.setCookie(SessionMiddleware.cookie(token: token, secure: context.isHTTPS))
        return token
    }

    /// Ends the request's session, if it has one, and expires its cookie on `response`.
    func endSession(of context: ShopRequestContext, on response: inout Response) async throws {
        if let token = context.sessionToken { try await endSession(token: token) }
        response.setCookie(SessionMiddleware.expiredCookie(secure: context.isHTTPS))
    }
}
