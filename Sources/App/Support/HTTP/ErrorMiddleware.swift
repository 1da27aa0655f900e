import Hummingbird
import JuiceBar
import Logging

/// Turns whatever a route throws into the API's JSON error, its message in the request's
/// language (`context.language`) and naming fruits and juices from the menu. A 500 is logged as the bug it is.
/// It also tells `refusals` how each write went: refused for the storage's trouble, or through.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext
    let menu: @Sendable () -> Menu
    /// The shop's one record of refused writes (`ShopServices.refusals`); a test may leave it out.
    var refusals = WriteRefusals()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            if (200..<400).contains(response.status.code) && WriteRefusals.isWrite(request.method) {
                refusals.cleared()
            }
            return response
        } catch {
            refusals.failed(error, isWrite: WriteRefusals.isWrite(request.method))
            let apiError = APIError(error)
            if apiError.status.code >= 500 && apiError.code == "internal" {
                context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            }
            return apiError.response(in: context.language, menu: menu())
        }
    }
}
