import Hummingbird
import JuiceBar

/// The vending machine's page, and its sales chart.
struct VendingPages {
    let vending: VendingService

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.get("vending", use: machine)
        pages.get("vending/chart", use: salesChart)
    }

    @Sendable func machine(_ request: Request, context: ShopRequestContext) async throws -> Response {
        VendingPage(state: try await vending.state(), history: try await vending.history(limit: 20),
                    sales: try await vending.sales(), account: context.account,
                    language: context.language, request: request).render()
    }

    /// The sales chart alone, as an SVG drawing.
    @Sendable func salesChart(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let chart = SalesChart(sales: try await vending.sales(),
                               names: VendingPage.names(of: try await vending.state(), in: context.language),
                               emptyText: Words.of(context.language).vending.noSales)
        return Response(status: .ok, headers: [.contentType: "image/svg+xml"],
                        body: .init(byteBuffer: ByteBuffer(string: chart.svg)))
    }
}
