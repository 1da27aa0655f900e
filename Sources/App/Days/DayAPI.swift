import DayClose
import Hummingbird
import Storage

/// Closing the shop day and reading the reports, for staff: `POST /api/days/close`,
/// `GET /api/days` (oldest first), `GET /api/days/{number}`.
struct DayAPI {
    let days: ShopDays

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.group("days").add(middleware: SignInRequired.staffAPI)
            .get(use: reports)
            .get(":number", use: report)
            .post("close", use: close)
    }

    @Sendable func close(_ request: Request, context: ShopRequestContext) async throws -> Response {
        reportsJSON(try await days.close().json, status: .created)
    }

    @Sendable func reports(_ request: Request, context: ShopRequestContext) async throws -> Response {
        reportsJSON(SealedReport.json(try await days.reports()))
    }

    @Sendable func report(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let text = context.parameters.get("number") ?? ""
        guard let number = Int(text), let report = try await days.report(number: number) else {
            throw DayCloseError.unknownReport(text)
        }
        return reportsJSON(report.json)
    }

    /// Reports go out as they are stored, their canonical text unchanged.
    private func reportsJSON(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
