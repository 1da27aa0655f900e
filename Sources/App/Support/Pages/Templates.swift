import Foundation
import Hummingbird
import Membership
import Mustache
import ShopBasics

/// Every template the pages use, by the name of its file (`order.mustache`, beside its feature's
/// code; Package.swift bundles each it finds). A name here without its file fails
/// `TemplateTests`, not a customer's page.
enum Template: String, CaseIterable {
    /// What every page fills (`{{<layout}}`), and the header in it.
    case layout, header
    // The pages.
    case order, vending, home, counter, kitchen, board, reports, menu, receipt, login, signup, formRefused = "form-refused"
    // Parts of pages.
    case productArt = "product-art", salesChart = "sales-chart", kakaoButton = "kakao-button", kakaoSymbol = "kakao-symbol"
    /// The anti-CSRF field every form that posts holds (`{{> csrf-field}}`; `PageTests` checks each does).
    case csrfField = "csrf-field"
}

/// The pages' templates, read once from the bundle. `{{name}}` writes text escaped for HTML, so a
/// page cannot forget to escape; the raw `{{{name}}}` appears only for JSON already made safe for
/// a script block (`scriptJSON`).
enum Templates {
    /// Every template in the bundle, by name (its file's, less `.mustache`), as text.
    static let bundled: [String: String] = {
        let folder = Bundle.module.resourceURL!
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return Dictionary(uniqueKeysWithValues: files.filter { $0.hasSuffix(".mustache") }.map { file in
            guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else {
                fatalError("the template \(file) cannot be read")
            }
            return (String(file.dropLast(".mustache".count)), text)
        })
    }()

    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in bundled {
            do {
                try library.register(text, named: name)
            } catch {
                fatalError("the template \(name) does not parse: \(error)")
            }
        }
        return library
    }()

    /// A template rendered on its own (an SVG drawing, a part of a page).
    static func render(_ template: Template, _ model: Any) -> String {
        guard let text = library.render(model, withTemplate: template.rawValue) else {
            fatalError("no template named \(template.rawValue)")
        }
        return text
    }

    /// A whole page: `template` fills the `content` block of `layout.mustache` with `page`.
    static func page(_ template: Template, _ page: some PageModel, status: HTTPResponse.Status = .ok) -> Response {
        htmlResponse(render(template, page), status: status)
    }
}

/// What the layout reads from every page's model: its header, which has the page's title and language.
protocol PageModel {
    var header: PageHeader { get }
}

/// The header every page shows (`header.mustache`): the shop's name, the page's title, the
/// pages (쥬스 주문 · 자판기 · 홈, and staff's), who is signed in with 로그아웃 or else 로그인, and the language.
struct PageHeader {
    enum Page {
        case order, vending, home, signIn, signUp, counter, kitchen, board, reports, menu, receipt, formRefused
    }

    /// The `<title>` and the page's `<h1>`.
    let title: String
    /// `ko` or `en`, for `<html lang>` and the forms' language field.
    let lang: String
    let strings: CommonWords
    let links: PageLinks
    let account: SignedIn?
    let languageSwitch: LanguageSwitch
    let isOrder: Bool
    let isVending: Bool
    let isHome: Bool
    let isCounter: Bool
    let isKitchen: Bool
    let isReports: Bool
    let isMenu: Bool
    /// The page's anti-CSRF token (`CSRFToken`): in the layout's `<meta name="csrf-token">` for its
    /// scripts and in every form that posts (`csrf-field.mustache`); empty outside a request.
    let csrfToken: String

    /// `path`: the page's own, when a form posted elsewhere draws it again (`POST /menu/juices/kiwiJuice`
    /// draws `/menu`), so the language link goes to the page, not to the form's route.
    init(_ page: Page, title: String, account: Account?, language: Language, request: Request, path: String? = nil) {
        self.title = title
        lang = language.rawValue
        strings = .of(language)
        var links = PageLinks(language)
        // Signing in from a page comes back to it.
        if page == .order || page == .vending {
            links.signIn = PageLinks.signIn(returningTo: request.uri.path, language)
        }
        self.links = links
        self.account = account.map { SignedIn(name: $0.name, isStaff: $0.isStaff) }
        languageSwitch = LanguageSwitch(path: path ?? request.uri.path, language)
        isOrder = page == .order
        isVending = page == .vending
        isHome = page == .home
        isCounter = page == .counter
        isKitchen = page == .kitchen
        isReports = page == .reports
        isMenu = page == .menu
        csrfToken = CSRFToken.page?.token ?? ""
    }
}

/// The link to the same page in the other language.
struct LanguageSwitch {
    let href: String
    let label: String
    /// The other language's code: the link's text is in it.
    let lang: String

    init(path: String, _ language: Language) {
        let other: Language = language == .ko ? .en : .ko
        href = "\(path)?lang=\(other.rawValue)"
        label = CommonWords.of(language).otherLanguage
        lang = other.rawValue
    }
}

/// The shop's pages, in the page's language.
struct PageLinks {
    let order: String
    let vending: String
    let home: String
    let counter: String
    let kitchen: String
    let reports: String
    let menu: String
    var signIn: String
    let signUp: String

    /// The sign-in page, which comes back to `path` once signed in.
    static func signIn(returningTo path: String, _ language: Language) -> String {
        let next = path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "%2F"
        return "/login?next=\(next)" + (language == .en ? "&lang=en" : "")
    }

    init(_ language: Language) {
        let query = language == .en ? "?lang=en" : ""
        order = "/" + query
        vending = "/vending" + query
        home = "/home" + query
        counter = "/counter" + query
        kitchen = "/kitchen" + query
        reports = "/reports" + query
        menu = "/menu" + query
        signIn = "/login" + query
        signUp = "/signup" + query
    }
}

/// Who is signed in, as the header shows them.
struct SignedIn {
    let name: String
    /// Staff also see the counter, the making screen, the day reports and 메뉴 관리 in the header.
    let isStaff: Bool
}
