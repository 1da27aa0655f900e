import Hummingbird
import Membership

/// Sign-in and sign-out for API clients: `POST /api/session`, `DELETE /api/session`, `GET /api/me`.
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
        try await accounts.startSession(for: account, of: context, on: &response)
        return response
    }

    @Sendable func signOut(_ request: Request, context: ShopRequestContext) async throws -> Response {
        var response = Response(status: .noContent)
        try await accounts.endSession(of: context, on: &response)
        return response
    }

    @Sendable func me(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(AccountAnswer(try context.requireAccount()))
    }
}
