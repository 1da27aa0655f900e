import Hummingbird
import JuiceBar
import ShopBasics

extension Language {
    /// `?lang=` first, then the language chosen before (its cookie), then the browser's
    /// `Accept-Language`, else Korean.
    static func preferred(by request: Request) -> Language {
        if let chosen = chosen(by: request) { return chosen }
        if let remembered = request.cookies[cookieName].flatMap({ Language(rawValue: $0.value) }) { return remembered }
        guard let header = request.headers[.acceptLanguage] else { return .ko }
        let ranked = header.split(separator: ",").compactMap { part -> (Language, Double)? in
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = fields.first?.lowercased(),
                  let language = Language(rawValue: String(tag.prefix(2))) else { return nil }
            let quality = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (language, quality)
        }
        return ranked.max { $0.1 < $1.1 }?.0 ?? .ko
    }

    /// The language asked for with `?lang=`, if any.
    static func chosen(by request: Request) -> Language? {
        request.uri.queryParameters["lang"].flatMap { Language(rawValue: String($0)) }
    }

    static let cookieName = "juicemaker_lang"

    /// Remembers a language chosen with `?lang=` for a year, so every page after follows it;
    /// over HTTPS sent over HTTPS only.
    func cookie(secure: Bool) -> Cookie {
        Cookie(name: Self.cookieName, value: rawValue, maxAge: 365 * 86_400, path: "/", secure: secure, sameSite: .lax)
    }
}

/// Works out the request's language once and carries it in the context for everything after
/// it: the routes, the pages, and `ErrorMiddleware`'s messages (so it runs before that one).
struct LanguageMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.language = Language.preferred(by: request)
        return try await next(request, context)
    }
}

/// Sets the language cookie on the answer to a request that chose a language with `?lang=`.
/// It runs innermost, so only an answer a route gave remembers the choice, not an error page.
struct RememberLanguageMiddleware: RouterMiddleware {
    typealias Context = ShopRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if let chosen = Language.chosen(by: request) { response.setCookie(chosen.cookie(secure: context.isHTTPS)) }
        return response
    }
}
