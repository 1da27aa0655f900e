import Foundation
import Hummingbird
import JuiceBar
import Mustache

/// The pages' templates (`*.mustache`, each beside its feature's code), read once from the
/// bundle. `{{name}}` writes text escaped for HTML, so a page cannot forget to escape; the raw
/// `{{{name}}}` appears only for JSON already made safe for a script block (`scriptJSON`).
enum Templates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        let folder = Bundle.module.resourceURL!
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".mustache") {
            do {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                try library.register(text, named: String(name.dropLast(".mustache".count)))
            } catch {
                fatalError("the template \(name) does not parse: \(error)")
            }
        }
        return library
    }()

    /// A template rendered on its own (an SVG drawing, a part of a page).
    static func render(_ template: String, _ model: Any) -> String {
        guard let text = library.render(model, withTemplate: template) else { fatalError("no template named \(template)") }
        return text
    }

    /// A whole page: `template` fills the `content` block of `layout.mustache` with `page`.
    static func page(_ template: String, _ page: some PageModel, status: HTTPResponse.Status = .ok) -> Response {
        htmlResponse(render(template, page), status: status)
    }
}

/// What the layout reads from every page's model.
protocol PageModel {
    /// The `<title>` and the page's `<h1>`.
    var title: String { get }
    /// `ko` or `en`, for `<html lang>`.
    var lang: String { get }
    /// The same page in the other language.
    var languageSwitch: LanguageSwitch { get }
}

/// The link to the same page in the other language.
struct LanguageSwitch {
    let href: String
    let label: String

    init(_ request: Request, _ language: Language) {
        let other: Language = language == .ko ? .en : .ko
        href = "\(request.uri.path)?lang=\(other.rawValue)"
        label = Strings.of(language).otherLanguage
    }
}

/// The shop's pages, in the page's language.
struct PageLinks {
    let vending: String
    let home: String
    let signIn: String

    init(_ language: Language) {
        let query = language == .en ? "?lang=en" : ""
        vending = "/vending" + query
        home = "/home" + query
        signIn = "/login" + query
    }
}

/// Who is signed in, as the header shows them.
struct SignedIn {
    let name: String
}
