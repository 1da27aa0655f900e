import Hummingbird
import JuiceBar

/// The vending machine's page, and its sales chart.
struct VendingPages {
    let vending: VendingService

    func addRoutes(to router: Router<ShopRequestContext>) {
        router.get("vending") { request, context in
            VendingPage(state: try await vending.state(), history: try await vending.history(limit: 20),
                        sales: try await vending.sales(), account: context.account,
                        language: Language.preferred(by: request), request: request).render()
        }
        router.get("vending/chart") { request, _ in
            let language = Language.preferred(by: request)
            let chart = SalesChart(sales: try await vending.sales(), names: VendingPage.names(of: try await vending.state(), in: language),
                                   emptyText: Words.of(language).vending.noSales)
            return Response(status: .ok, headers: [.contentType: "image/svg+xml"],
                            body: .init(byteBuffer: ByteBuffer(string: chart.svg)))
        }
    }
}
