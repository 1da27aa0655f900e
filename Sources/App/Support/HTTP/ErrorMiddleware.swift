import Hummingbird
import JuiceBar
import Logging

/// Turns whatever a route throws into the API's JSON error, its message in the request's
/// language (`context.language`) and naming fruits and juices from the menu. A 500 is logged as the bug it is.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext
    let menu: @Sendable () -> Menu

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = APIError(error)
            if apiError.status.code >= 500 {
                context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            }
            return apiError.response(in: context.language, menu: menu())
        }
    }
}
