import Hummingbird

/// Keeps a group of routes for the signed-in or for staff. A page (`/home`; `/kitchen` and
/// `/reports` for staff) sends anyone else to sign in (302) and back to it after; the API refuses
/// them as `requireStaff()` does (401, or 403 to a member).
struct SignInRequired: RouterMiddleware {
    typealias Context = ShopRequestContext

    let staffOnly: Bool
    let isPage: Bool

    static let signedInPages = SignInRequired(staffOnly: false, isPage: true)
    static let staffPages = SignInRequired(staffOnly: true, isPage: true)
    static let staffAPI = SignInRequired(staffOnly: true, isPage: false)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard isPage else {
            if staffOnly { try context.requireStaff() } else { _ = try context.requireAccount() }
            return try await next(request, context)
        }
        guard let account = context.account, !staffOnly || account.isStaff else {
            // The route's own path (`/kitchen`), as written, not whatever spelling reached it; its
            // parameters filled in (`/orders/{id}/receipt` is `/orders/7/receipt`).
            let page = context.endpointPath.map { path in
                context.parameters.reduce(path) { $0.replacingOccurrences(of: "{\($1.key)}", with: String($1.value)) }
            } ?? request.uri.path
            return Response.redirect(to: PageLinks.signIn(returningTo: page, context.language), type: .found)
        }
        return try await next(request, context)
    }
}
