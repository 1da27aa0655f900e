import Hummingbird
import Membership

/// Finds who is signed in from the session cookie and puts the account on the context.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext
    let accounts: AccountService

    static let cookieName = "juicemaker_session"
    static let secretCookie = SecretCookie(name: cookieName)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let token = Self.secretCookie.value(in: request, secure: context.isHTTPS), !token.isEmpty {
            context.sessionToken = token
            context.account = try await accounts.account(sessionToken: token)
        }
        return try await next(request, context)
    }

    /// The cookie that carries a session.
    static func cookie(token: String, secure: Bool) -> Cookie {
        secretCookie.cookie(token, maxAge: Int(AccountService.sessionLifetime), secure: secure)
    }

    static func expiredCookie(secure: Bool) -> Cookie {
        secretCookie.cookie("", maxAge: 0, secure: secure)
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
