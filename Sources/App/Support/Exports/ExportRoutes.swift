import Hummingbird
import JuiceBar
import NIOCore
import ShopBasics
import Storage

/// `GET /api/orders.csv`, `/api/ledger.csv`, `/api/vending/sales.csv` (staff; `from`/`to` days,
/// both optional): the shop's records for a spreadsheet, streamed as they are read.
struct ExportRoutes {
    let juiceBar: JuiceBarService
    let stores: ShopDatabase
    /// The shop's calendar at each request: it follows a time zone changed while the server runs.
    let calendar: @Sendable () -> ShopCalendar

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.group().add(middleware: SignInRequired.staffAPI)
            .get("orders.csv", use: orders)
            .get("ledger.csv", use: ledger)
            .get("vending/sales.csv", use: sales)
    }

    @Sendable func orders(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let export = ShopExports.orders(stores.juiceBar, menu: juiceBar.menu, calendar: calendar(), language: context.language)
        return try csv(export, named: "orders.csv", for: request)
    }

    @Sendable func ledger(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let export = ShopExports.ledger(stores.juiceBar, menu: juiceBar.menu, calendar: calendar(), language: context.language)
        return try csv(export, named: "ledger.csv", for: request)
    }

    @Sendable func sales(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let export = ShopExports.sales(stores.vending, calendar: calendar(), language: context.language)
        return try csv(export, named: "sales.csv", for: request)
    }

    /// The export over the request's period, as a download; a bad period is refused before any row.
    private func csv<Row>(_ export: CSVExport<Row>, named name: String, for request: Request) throws -> Response {
        let query = request.uri.queryParameters
        let period = try ShopExports.period(from: query["from"].map(String.init), to: query["to"].map(String.init),
                                            calendar: calendar())
        return Response(
            status: .ok,
            headers: [.contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(name)\""],
            body: ResponseBody { writer in
                try await export.write(from: period.from, until: period.until) { text in
                    try await writer.write(ByteBuffer(string: text))
                }
                try await writer.finish(nil)
            })
    }
}
