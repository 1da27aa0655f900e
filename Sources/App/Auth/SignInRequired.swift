import Hummingbird

/// Keeps a group of pages for the signed-in (`/home`) or for staff (`/kitchen`, `/reports`):
/// anyone else is sent to sign in (302), and comes back to the page once signed in.
struct SignInRequired: RouterMiddleware {
    typealias Context = ShopRequestContext

    enum Who {
        case anyAccount
        case staff
    }

    let who: Who

    static let anyAccount = SignInRequired(who: .anyAccount)
    static let staff = SignInRequired(who: .staff)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let account = context.account, who == .anyAccount || account.isStaff else {
            // The route's own path (`/kitchen`), as written, not whatever spelling reached it.
            let page = context.endpointPath ?? request.uri.path
            return Response.redirect(to: PageLinks.signIn(returningTo: page, context.language), type: .found)
        }
        return try await next(request, context)
    }
}
