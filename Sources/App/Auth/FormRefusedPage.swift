import Hummingbird
import Membership
import ShopBasics

/// What a page's form gets when `CSRFMiddleware` refuses it (no anti-CSRF token, or another
/// session's): 403, a page in the form's language saying nothing was done, and a way back to a
/// fresh copy of the page the form was on.
struct FormRefusedPage {
    let language: Language
    let account: Account?
    let request: Request

    func render() -> Response {
        let strings = CommonWords.of(language)
        return Templates.page(.formRefused, Model(
            header: PageHeader(.formRefused, title: strings.formRefused, account: account, language: language, request: request),
            message: Words.of(language).say(Message(.formExpired)), back: back, backLabel: strings.backToPage),
            status: .forbidden)
    }

    /// The page the form was sent from, when the browser says and it is one of this site's; else the start page.
    var back: String {
        let referer = request.headers[.referer].flatMap { referer -> String? in
            guard let host = request.head.authority, CrossSiteMiddleware<ShopRequestContext>.host(of: referer) == host.lowercased(),
                  let schemeEnd = referer.range(of: "://") else { return nil }
            let rest = referer[schemeEnd.upperBound...]
            return rest.firstIndex(of: "/").map { String(rest[$0...]) }
        }
        return referer.flatMap(LoginPage.safeNext) ?? PageLinks(language).order
    }

    /// What `form-refused.mustache` shows.
    struct Model: PageModel {
        let header: PageHeader
        let message: String
        let back: String
        let backLabel: String
    }
}
