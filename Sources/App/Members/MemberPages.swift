import Hummingbird
import JuiceBar
import Membership
import ShopBasics

/// The member's home page, for anyone signed in, and the changes to their own account made from it:
/// `POST /home/username` and `POST /home/password` (a first password, for a member made by Kakao).
/// (Signing up is among `SessionPages`; linking Kakao is `KakaoLogin`'s.)
struct MemberPages {
    let content: ContentService
    let juiceBar: JuiceBarService
    let accounts: AccountService
    /// The issuer members link from `/home`; nil when the server has no Kakao client id.
    let kakaoIssuer: String?

    struct UsernameForm: PageForm {
        let username: String
        let lang: String?
    }

    struct PasswordForm: PageForm {
        let password: String
        let lang: String?
    }

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.group().add(middleware: SignInRequired.signedInPages)
            .get("home", use: home)
            .post("home/username", use: changeUsername)
            .post("home/password", use: setPassword)
    }

    /// `?notice=` says what a change or a Kakao flow just came to.
    @Sendable func home(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let notice = request.uri.queryParameters["notice"].flatMap { AccountNotice(rawValue: String($0)) }
        return try await page(request, context, language: context.language, notice: notice)
    }

    func page(_ request: Request, _ context: ShopRequestContext, language: Language, notice: AccountNotice? = nil,
              message: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let (account, token) = try context.requireSession()
        // One read of the member's orders serves both the recent list and the recommendation.
        let orders = try await juiceBar.orders(member: account.id, limit: nil)
        let queue = try await juiceBar.readQueue()
        return HomePage(
            account: account,
            event: try await content.eventToShow(account: account, sessionToken: token),
            news: try await content.news(),
            orders: Array(orders.prefix(HomePage.shownOrders)),
            recommendation: juiceBar.recommendation(fromOrders: orders),
            activeOrders: orders.filter(\.status.isActive).reversed(),
            queue: queue, wait: try await juiceBar.wait(in: queue),
            menu: juiceBar.menu, calendar: content.calendar(),
            settings: AccountSettings(account: account, kakaoIssuer: kakaoIssuer, language: language, notice: notice, message: message),
            language: language, request: request
        ).render(status: status)
    }

    @Sendable func changeUsername(_ request: Request, context: ShopRequestContext) async throws -> Response {
        try await change(UsernameForm.self, request, context, done: .usernameChanged) { form, account in
            try await accounts.rename(accountID: account.id, username: form.username)
        }
    }

    /// Only a member without a password sets one here; changing a password asks for the old one, which this does not.
    @Sendable func setPassword(_ request: Request, context: ShopRequestContext) async throws -> Response {
        try await change(PasswordForm.self, request, context, done: .passwordSet) { form, account in
            guard !account.hasPassword else { throw APIError.forbidden }
            try await accounts.setPassword(accountID: account.id, password: form.password, client: context.clientAddress)
        }
    }

    /// Reads the posted form and makes the change: `/home` saying it is done, or the page again with the refusal.
    func change<Form: PageForm>(_ type: Form.Type, _ request: Request, _ context: ShopRequestContext, done: AccountNotice,
                                _ make: (Form, Account) async throws -> Void) async throws -> Response {
        let account = try context.requireAccount()
        switch await request.pageForm(type, language: context.language, unreadable: Message(.badRequest)) {
        case .refused(let message, let status, let language):
            return try await page(request, context, language: language, message: message, status: status)
        case .form(let form, let language):
            let refusal: APIError
            do {
                try await make(form, account)
                return HomePage.saying(done)
            } catch let error as AccountError {
                refusal = APIError(error)
            } catch let error as APIError where error.status.code < 500 {
                refusal = error
            }
            return try await page(request, context, language: language, message: Words.of(language).say(refusal.message),
                                  status: refusal.status)
        }
    }
}
