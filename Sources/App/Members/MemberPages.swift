import Hummingbird
import JuiceBar
import Membership

/// The member's home page, for anyone signed in. (Signing up is among `SessionPages`.)
struct MemberPages {
    let content: ContentService
    let juiceBar: JuiceBarService

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.group().add(middleware: SignInRequired.signedInPages)
            .get("home", use: home)
    }

    @Sendable func home(_ request: Request, context: ShopRequestContext) async throws -> Response {
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
            menu: juiceBar.menu, calendar: content.calendar(), language: context.language, request: request
        ).render()
    }
}
