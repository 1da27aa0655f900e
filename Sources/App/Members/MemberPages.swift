import Hummingbird
import JuiceBar
import Membership

/// The member pages: sign-up and home.
struct MemberPages {
    let accounts: AccountService
    let content: ContentService
    let juiceBar: JuiceBarService

    struct SignupForm: Decodable {
        let username: String
        let password: String
        let name: String?
        let lang: String?
    }

    func addRoutes(to router: Router<ShopRequestContext>) {
        router.get("signup") { request, _ in
            SignupPage(language: Language.preferred(by: request), message: nil, username: "", name: "", request: request).render()
        }
        router.post("signup") { request, context in
            guard let buffer = try? await request.body.collect(upTo: Request.maximumJSONBody) else {
                let language = Language.preferred(by: request)
                return SignupPage(language: language, message: Words.of(language).say(Message(.tooLarge)), username: "", name: "",
                                  request: request).render(status: .contentTooLarge)
            }
            let form = try? URLEncodedFormDecoder().decode(SignupForm.self, from: String(buffer: buffer))
            let language = form?.lang.flatMap(Language.init(rawValue:)) ?? Language.preferred(by: request)
            guard let form else {
                return SignupPage(language: language, message: Words.of(language).say(Message(.badRequest)), username: "", name: "",
                                  request: request).render(status: .badRequest)
            }
            let name = form.name.flatMap { $0.isEmpty ? nil : $0 } ?? form.username
            do {
                let account = try await accounts.signUp(username: form.username, password: form.password, name: name,
                                                        role: .member, client: context.clientAddress)
                var response = Response.redirect(to: "/home" + (language == .en ? "?lang=en" : ""), type: .found)
                response.setCookie(SessionMiddleware.cookie(token: try await accounts.startSession(for: account)))
                return response
            } catch let error as AccountError {
                return SignupPage(language: language, message: Words.of(language).say(error.message), username: form.username,
                                  name: form.name ?? "", request: request)
                    .render(status: APIError(error).status)
            } catch let error as APIError where error.status == .serviceUnavailable {
                return SignupPage(language: language, message: Words.of(language).say(APIError.busy.message), username: form.username,
                                  name: form.name ?? "", request: request).render(status: .serviceUnavailable)
            }
        }
        router.get("home") { request, context in
            guard let account = context.account, let token = context.sessionToken else {
                let language = Language.preferred(by: request)
                return Response.redirect(to: PageLinks.signIn(returningTo: "/home", language), type: .found)
            }
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
                menu: juiceBar.menu, language: Language.preferred(by: request), request: request
            ).render()
        }
    }
}
