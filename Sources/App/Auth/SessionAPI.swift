import Foundation
import Hummingbird
import JuiceBar
import Membership

/// Sign-in and sign-out: the JSON API and the `/login` page share one service.
struct SessionRoutes {
    let accounts: AccountService

    struct Credentials: Decodable {
        let username: String
        let password: String
    }

    struct LoginForm: Decodable {
        let username: String
        let password: String
        let next: String?
        let lang: String?
    }

    struct AccountBody: Encodable {
        let id: Int64
        let username: String
        let name: String
        let role: Role
        init(_ account: Account) {
            id = account.id
            username = account.username
            name = account.name
            role = account.role
        }
    }

    func addRoutes(api: RouterGroup<ShopRequestContext>, pages: Router<ShopRequestContext>) {
        api.post("session") { request, context in
            let credentials = try await request.decodeJSON(Credentials.self)
            let account = try await accounts.signIn(username: credentials.username, password: credentials.password,
                                                    client: context.clientAddress)
            var response = Response.json(AccountBody(account))
            response.setCookie(SessionMiddleware.cookie(token: try await accounts.startSession(for: account)))
            return response
        }
        api.delete("session") { _, context in
            try await signOut(context)
            var response = Response(status: .noContent)
            response.setCookie(SessionMiddleware.expiredCookie)
            return response
        }
        api.get("me") { _, context in
            guard let account = context.account else { throw APIError.unauthorized }
            return Response.json(AccountBody(account))
        }

        pages.get("login") { request, _ in
            let language = Language.preferred(by: request)
            return LoginPage(language: language, strings: .of(language),
                             next: request.uri.queryParameters["next"].flatMap { LoginPage.safeNext(String($0)) } ?? "",
                             message: nil, notice: request.uri.queryParameters["reason"] == "stock" ? CommonWords.of(language).staffEditsStock : nil,
                             username: "", request: request).render()
        }
        pages.post("login") { request, context in
            guard let buffer = try? await request.body.collect(upTo: Request.maximumJSONBody) else {
                let language = Language.preferred(by: request)
                return LoginPage(language: language, strings: .of(language), next: "", message: Words.of(language).say(Message(.tooLarge)),
                                 username: "", request: request).render(status: .contentTooLarge)
            }
            let form = try? URLEncodedFormDecoder().decode(LoginForm.self, from: String(buffer: buffer))
            let language = form?.lang.flatMap(Language.init(rawValue:)) ?? Language.preferred(by: request)
            func refused(_ refusal: APIError, _ status: HTTPResponse.Status? = nil) -> Response {
                LoginPage(language: language, strings: .of(language), next: form?.next ?? "",
                          message: Words.of(language).say(refusal.message), username: form?.username ?? "", request: request)
                    .render(status: status ?? refusal.status)
            }
            guard let form else { return refused(.invalidCredentials, .badRequest) }
            let account: Account
            do {
                account = try await accounts.signIn(username: form.username, password: form.password,
                                                    client: context.clientAddress)
            } catch let refusal as APIError {
                return refused(refusal)
            } catch is AccountError {
                // A password no account can have (too long, a NUL): as wrong as any other.
                return refused(.invalidCredentials)
            }
            let landing = account.isStaff ? "/" : "/home"
            let next = form.next.flatMap(LoginPage.safeNext) ?? landing
            var response = Response.redirect(to: next, type: .found)
            response.setCookie(SessionMiddleware.cookie(token: try await accounts.startSession(for: account)))
            return response
        }
        pages.post("logout") { _, context in
            try await signOut(context)
            var response = Response.redirect(to: "/", type: .found)
            response.setCookie(SessionMiddleware.expiredCookie)
            return response
        }
    }

    private func signOut(_ context: ShopRequestContext) async throws {
        if let token = context.sessionToken { try await accounts.endSession(token: token) }
    }
}
