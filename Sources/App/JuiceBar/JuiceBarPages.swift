import Hummingbird
import JuiceBar

/// The juice bar's page: the order screen at `/`.
struct JuiceBarPages {
    let juiceBar: JuiceBarService

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.get("/", use: orderScreen)
    }

    @Sendable func orderScreen(_ request: Request, context: ShopRequestContext) async throws -> Response {
        OrderPage(menu: juiceBar.menu, stock: juiceBar.stock, account: context.account, language: context.language,
                  request: request).render()
    }
}
