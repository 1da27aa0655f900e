import Hummingbird

/// A cookie that holds a secret of the browser's: the session's token, Kakao sign-in's binding,
/// the sign-in forms' pre-session secret. Out of reach of scripts, not sent on cross-site posts,
/// and over HTTPS named `__Host-…`: a browser keeps such a cookie only when it is `Secure`, for
/// this host alone and path `/`, so neither a plain-HTTP answer nor another site of the domain
/// can plant one.
struct SecretCookie: Sendable {
    let name: String

    func name(secure: Bool) -> String { secure ? "__Host-" + name : name }

    func cookie(_ value: String, maxAge: Int, secure: Bool) -> Cookie {
        Cookie(name: name(secure: secure), value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true,
               sameSite: .lax)
    }

    /// What the request's cookie holds, whatever its shape.
    func value(in request: Request, secure: Bool) -> String? {
        request.cookies[name(secure: secure)]?.value
    }

    /// The request's cookie when it holds a secret `RandomToken` made.
    func token(in request: Request, secure: Bool) -> String? {
        value(in: request, secure: secure).flatMap { RandomToken.isWellFormed($0) ? $0 : nil }
    }
}
