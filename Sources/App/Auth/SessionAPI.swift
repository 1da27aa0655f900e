import Hummingbird
import Membership

/// Sign-in and sign-out for API clients: `POST /api/session`, `DELETE /api/session`, `GET /api/me`.
/// Sign-in and `/api/me` answer the session's anti-CSRF token in `X-CSRF-Token`, which every write
/// made with the session cookie sends back (`CSRFMiddleware`).
/// The `/login` pages (`SessionPages`) share the same service.
struct SessionAPI {
    let accounts: AccountService

    struct Credentials: Decodable {
        let username: String
        let password: String
    }

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.group("session")
            .post(use: signIn)
            .delete(use: signOut)
        api.get("me", use: me)
    }

    @Sendable func signIn(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let credentials = try await request.decodeJSON(Credentials.self)
        let account = try await accounts.signIn(username: credentials.username, password: credentials.password,
                                                client: context.clientAddress)
        var response = Response.json(AccountAnswer(account))
        let session = try await accounts.startSession(for: account, of: context, on: &response)
        // What this client sends back in `X-CSRF-Token` with every write made under the cookie.
        response.headers[.csrfToken] = CSRFToken.token(for: session)
        return response
    }

    @Sendable func signOut(_ request: Request, context: ShopRequestContext) async throws -> Response {
        var response = Response(status: .noContent)
        try await accounts.endSession(of: context, on: &response)
        return response
    }

    /// Also answers the session's anti-CSRF token, for a client that has the cookie but not the token.
    @Sendable func me(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let (account, session) = try context.requireSession()
        var response = Response.json(AccountAnswer(account))
        response.headers[.csrfToken] = CSRFToken.token(for: session)
        return response
    }
}
