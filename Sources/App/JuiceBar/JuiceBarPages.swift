import Hummingbird
import JuiceBar

/// The juice bar's page: the order screen at `/`.
struct JuiceBarPages {
    let juiceBar: JuiceBarService

    func addRoutes(to router: Router<ShopRequestContext>) {
        router.get("/") { request, context in
            let language = Language.preferred(by: request)
            return OrderPage(menu: juiceBar.menu, stock: juiceBar.stock, account: context.account,
                             language: language, strings: .of(language), request: request).render()
        }
    }
}
