import Hummingbird
import JuiceBar
import Membership
import ShopBasics

/// The pages that open and close a session, working without JavaScript: `/login`, `/signup`
/// (a new member, signed in at once) and `POST /logout`. The JSON API beside them is `SessionAPI`.
struct SessionPages {
    let accounts: AccountService
    /// Whether the pages offer signing in with Kakao.
    let kakaoLogin: Bool

    struct LoginForm: PageForm {
        let username: String
        let password: String
        let next: String?
        let lang: String?
    }

    struct SignupForm: PageForm {
        let username: String
        let password: String
        let name: String?
        let lang: String?
    }

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.group("login").get(use: loginForm).post(use: logIn)
        pages.group("signup").get(use: signupForm).post(use: signUp)
        pages.post("logout", use: logOut)
    }

    /// The sign-in form; `?next=` is where it goes after, `?reason=stock` says why it was asked for.
    @Sendable func loginForm(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        return LoginPage(language: context.language,
                         next: query["next"].flatMap { LoginPage.safeNext(String($0)) } ?? "",
                         message: nil, notice: query["reason"] == "stock" ? CommonWords.of(context.language).staffEditsStock : nil,
                         username: "", request: request, kakaoLogin: kakaoLogin).render()
    }

    /// Signs in and goes on to `next` (a page on this site), else staff to `/` and members to `/home`.
    @Sendable func logIn(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let (form, language): (LoginForm, Language)
        switch await request.pageForm(LoginForm.self, language: context.language, unreadable: APIError.invalidCredentials.message) {
        case .form(let posted, let postedLanguage):
            (form, language) = (posted, postedLanguage)
        case .refused(let message, let status, let language):
            return LoginPage(language: language, next: "", message: message, username: "", request: request, kakaoLogin: kakaoLogin).render(status: status)
        }
        func refused(_ refusal: APIError) -> Response {
            LoginPage(language: language, next: form.next ?? "", message: Words.of(language).say(refusal.message),
                      username: form.username, request: request, kakaoLogin: kakaoLogin).render(status: refusal.status)
        }
        let account: Account
        do {
            account = try await accounts.signIn(username: form.username, password: form.password, client: context.clientAddress)
        } catch let refusal as APIError {
            return refused(refusal)
        } catch is AccountError {
            // A password no account can have (too long, a NUL): as wrong as any other.
            return refused(.invalidCredentials)
        }
        let landing = account.isStaff ? "/" : "/home"
        var response = Response.redirect(to: form.next.flatMap(LoginPage.safeNext) ?? landing, type: .found)
        try await accounts.startSession(for: account, of: context, on: &response)
        return response
    }

    @Sendable func logOut(_ request: Request, context: ShopRequestContext) async throws -> Response {
        var response = Response.redirect(to: "/", type: .found)
        try await accounts.endSession(of: context, on: &response)
        return response
    }

    @Sendable func signupForm(_ request: Request, context: ShopRequestContext) async throws -> Response {
        SignupPage(language: context.language, message: nil, username: "", name: "", request: request, kakaoLogin: kakaoLogin).render()
    }

    /// Makes a member account (its name is the username when left empty), signs it in, and goes home.
    @Sendable func signUp(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let (form, language): (SignupForm, Language)
        switch await request.pageForm(SignupForm.self, language: context.language, unreadable: Message(.badRequest)) {
        case .form(let posted, let postedLanguage):
            (form, language) = (posted, postedLanguage)
        case .refused(let message, let status, let language):
            return SignupPage(language: language, message: message, username: "", name: "", request: request, kakaoLogin: kakaoLogin).render(status: status)
        }
        func refused(_ refusal: APIError) -> Response {
            SignupPage(language: language, message: Words.of(language).say(refusal.message), username: form.username,
                       name: form.name ?? "", request: request, kakaoLogin: kakaoLogin).render(status: refusal.status)
        }
        do {
            let account = try await accounts.signUp(username: form.username, password: form.password,
                                                    name: form.name.flatMap { $0.isEmpty ? nil : $0 } ?? form.username,
                                                    role: .member, client: context.clientAddress)
            var response = Response.redirect(to: "/home" + (language == .en ? "?lang=en" : ""), type: .found)
            try await accounts.startSession(for: account, of: context, on: &response)
            return response
        } catch let error as AccountError {
            return refused(APIError(error))
        } catch let error as APIError where error.status == .serviceUnavailable {
            return refused(.busy)
        }
    }
}
