import Hummingbird

/// Puts the browser's protections on every answer: pages, the API's JSON, errors, assets, images,
/// redirects and the live stream. Pages run only our own files (their data sits in a
/// `<script type="application/json">` our scripts read), so the policy allows nothing inline; they
/// may not be framed (clickjacking on stock edits or closing the day), and no device or sensor is
/// offered to them. Strict-Transport-Security is not here: it belongs to answers over HTTPS only.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext

    /// The policy; `formTargets` are the origins other than ours a form may lead to, redirects
    /// included: the sign-in provider's, whose authorization page the Kakao button's form reaches.
    static func contentSecurityPolicy(formTargets: [String] = []) -> String {
        ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'",
         "object-src 'none'", "base-uri 'none'", (["form-action 'self'"] + formTargets).joined(separator: " "),
         "frame-ancestors 'none'"]
            .joined(separator: "; ")
    }

    /// What the pages never use, as Chromium names them (it complains of a name it does not know,
    /// such as `bluetooth`). Not denied: notifications (the home page's, which this header has no
    /// say over) and autoplay (the kitchen's sound).
    static let permissionsPolicy =
        ["accelerometer", "camera", "display-capture", "geolocation", "gyroscope", "hid",
         "idle-detection", "magnetometer", "microphone", "midi", "payment", "publickey-credentials-get",
         "serial", "usb", "xr-spatial-tracking"]
            .map { "\($0)=()" }.joined(separator: ", ")

    let headers: HTTPFields

    init(formTargets: [String] = []) {
        headers = [.contentSecurityPolicy: Self.contentSecurityPolicy(formTargets: formTargets),
                   .init("X-Frame-Options")!: "DENY",
                   .xContentTypeOptions: "nosniff",
                   .init("Referrer-Policy")!: "same-origin",
                   .init("Permissions-Policy")!: Self.permissionsPolicy,
                   .init("Cross-Origin-Opener-Policy")!: "same-origin"]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        for field in headers { response.headers[field.name] = field.value }
        return response
    }
}
