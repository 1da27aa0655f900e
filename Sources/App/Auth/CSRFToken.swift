import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// The anti-CSRF token that every state-changing request made under a cookie sends back: a page's
/// forms in their hidden `csrf_token` field (`csrf-field.mustache`), its scripts in the
/// `X-CSRF-Token` header (read from the layout's `<meta name="csrf-token">` by `send.js`), an API
/// client from the `X-CSRF-Token` its sign-in answered. `CSRFMiddleware` checks it.
///
/// The token is HMAC-SHA256, keyed by the secret the browser's cookie holds, of a fixed label:
/// the session's own token once signed in, else a pre-session secret in the `juicemaker_form`
/// cookie (for the sign-in and sign-up forms, against login CSRF). So it is tied to the session
/// (a new one at every sign-in, worthless after sign-out), cannot be made without the HttpOnly
/// cookie that another site's page never reads, and tells nothing of the session token (HMAC is
/// one-way); and nothing is stored: every server sharing the database computes the same token.
/// A server-wide key would add nothing a 256-bit random session secret does not already give.
/// Pages answer `no-store` and are not compressed, so the token needs no per-response masking.
enum CSRFToken {
    /// The hidden field page forms carry (one of the names scanners such as wapiti look for).
    static let fieldName = "csrf_token"
    static let preSessionCookieName = "juicemaker_form"
    /// How long a pre-session secret lasts; each page that shows it sets it again.
    static let preSessionLifetime = 24 * 3600

    private static let label = Data("juicemaker anti-CSRF token v1".utf8)

    /// The token for the cookie secret `secret`: base64url, 43 characters.
    static func token(for secret: String) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: label, using: SymmetricKey(data: Data(secret.utf8)))))
    }

    /// Whether `sent` is the token for `secret`, compared in constant time.
    static func isValid(_ sent: some StringProtocol, for secret: String) -> Bool {
        guard sent.utf8.count == 43, let code = Base64URL.decode(String(sent)) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: label, using: SymmetricKey(data: Data(secret.utf8)))
    }

    static let preSession = SecretCookie(name: preSessionCookieName)

    /// The browser's pre-session secret, when its cookie holds one `RandomToken` made.
    static func preSessionSecret(in request: Request, _ context: ShopRequestContext) -> String? {
        preSession.token(in: request, secure: context.isHTTPS)
    }

    static func preSessionCookie(_ secret: String, secure: Bool) -> Cookie {
        preSession.cookie(secret, maxAge: preSessionLifetime, secure: secure)
    }

    /// The token of the page being drawn, which `PageHeader` reads: set by `CSRFMiddleware` around
    /// every page route, so a new page's forms and scripts get it with nothing more to do.
    @TaskLocal static var page: PageToken?
}

/// The token a page request draws, made from its secret only when a page asks for it (a page route
/// that draws no page, such as `/health`, costs nothing), and remembering that it was.
final class PageToken: Sendable {
    private struct State {
        var secret: String?
        var used = false
    }
    private let state: Mutex<State>

    /// `secret` is the session's token or the pre-session secret; nil: a new pre-session secret is
    /// made when the token is first asked for.
    init(secret: String?) {
        state = Mutex(State(secret: secret))
    }

    var token: String {
        let secret = state.withLock { state in
            state.used = true
            if state.secret == nil { state.secret = RandomToken.make() }
            return state.secret!
        }
        return CSRFToken.token(for: secret)
    }

    /// The secret, when a page was drawn with its token.
    var usedSecret: String? { state.withLock { $0.used ? $0.secret : nil } }
}

extension HTTPField.Name {
    static let csrfToken = Self("X-CSRF-Token")!
    /// What a browser says of a request's context (`same-origin`, `cross-site` …); other clients send none.
    static let secFetchSite = Self("Sec-Fetch-Site")!
}
