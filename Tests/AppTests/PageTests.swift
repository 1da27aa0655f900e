@testable import App
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct PageTests {
    @Test func theOrderScreenIsDrawnFromTheMenuWithModelIds() async throws {
        try await TestShop().run { client in
            let html = try await client.execute(uri: "/", method: .get) { $0 }.text
            for fruit in ["strawberry", "banana", "pineapple", "kiwi", "mango"] {
                #expect(html.contains("data-fruit=\"\(fruit)\">10<"))
            }
            #expect(html.contains(#"data-juice="strawberryBananaJuice" aria-describedby="price-strawberryBananaJuice">딸바쥬스 주문</button>"#))
            #expect(html.contains(#"data-price-of="strawberryBananaJuice" data-sale="strawberryBananaJuice:6000:false">6,000원</span>"#))
            #expect(html.contains("재고수정"))
            #expect(html.contains("aria-label=\"딸기 더하기\""))
            #expect(html.contains("aria-label=\"망고 빼기\""))
            #expect(html.contains("재고 수정"))
        }
    }

    /// A template named in the code but missing from the bundle fails here, not on a customer's
    /// page: the bundle holds exactly the templates `Template` names, each parses, and every part
    /// a template includes (`{{> header}}`, `{{<layout}}`) is one of them.
    @Test func everyTemplateIsInTheBundleAndEveryPartItIncludesIsToo() throws {
        #expect(Set(Templates.bundled.keys) == Set(Template.allCases.map(\.rawValue)))
        for template in Template.allCases {
            #expect(Templates.library.getTemplate(named: template.rawValue) != nil, "\(template.rawValue).mustache")
        }
        let inclusion = try Regex(#"\{\{\s*[<>]\s*([A-Za-z0-9_-]+)\s*\}\}"#)
        for (name, text) in Templates.bundled {
            for match in text.matches(of: inclusion) {
                let part = String(match.output[1].substring ?? "")
                #expect(Template(rawValue: part) != nil, "\(name).mustache includes \(part), which is no template")
            }
        }
    }

    /// Every form that posts carries the anti-CSRF field (`CSRFMiddleware` refuses it otherwise), so a
    /// new page's form that forgets `{{> csrf-field}}` fails here rather than for its users.
    @Test func everyFormThatPostsCarriesTheAntiCSRFField() throws {
        let form = try Regex(#"(?s)<form\b([^>]*)>(.*?)</form>"#)
        var posting = 0
        for (name, text) in Templates.bundled {
            for match in text.matches(of: form) {
                let attributes = String(text[match.output[1].range!]).lowercased()
                guard attributes.contains(#"method="post""#) else { continue }
                posting += 1
                #expect(text[match.output[2].range!].contains("{{> csrf-field}}"), "a form in \(name).mustache: <form\(attributes)>")
            }
        }
        #expect(posting >= 7, "the sign-in, sign-up, sign-out and four /home forms")
    }

    /// Every page tells its scripts the token (`send.js` sends it), and its forms hold it.
    @Test func pagesCarryTheTokenForScriptsAndForms() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            for page in ["/", "/vending", "/home", "/kitchen", "/board", "/reports", "/menu", "/login", "/signup"] {
                let html = try await client.execute(uri: page, method: .get, headers: [.cookie: staff]) { $0 }.text
                let token = HTTPFields.csrfToken(staff)
                #expect(html.contains(#"<meta name="csrf-token" content="\#(token)">"#), "\(page)")
                #expect(html.contains(#"name="csrf_token" value="\#(token)""#), "\(page): the sign-out form")
            }
        }
    }

    /// What a visitor typed comes back in the form escaped by the template, never as markup.
    @Test func aRefusedSignUpShowsWhatWasTypedAsText() async throws {
        try await TestShop().run { client in
            let hostile = "<img src=x onerror=alert(1)>"
            let form = "username=\(hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
                + "&password=long-enough-1&name=\(hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&lang=ko"
            let html = try await client.postForm("/signup", form, from: "/signup").text
            #expect(!html.contains(hostile))
            #expect(html.contains("value=\"&lt;img src=x onerror=alert(1)&gt;\""))
        }
    }

    @Test func englishByQueryOrAcceptLanguage() async throws {
        try await TestShop().run { client in
            let byQuery = try await client.execute(uri: "/?lang=en", method: .get) { $0 }.text
            #expect(byQuery.contains(">Order Strawberry Banana Juice</button>"))
            let byHeader = try await client.execute(uri: "/", method: .get, headers: [.acceptLanguage: "en-GB,en;q=0.8"]) { $0 }.text
            #expect(byHeader.contains("<html lang=\"en\">"))
            let koreanFirst = try await client.execute(uri: "/", method: .get, headers: [.acceptLanguage: "ko-KR,en;q=0.5"]) { $0 }.text
            #expect(koreanFirst.contains("<html lang=\"ko\">"))
        }
    }

    @Test func assetsAndTheAPIDescriptionAreServedByTheServer() async throws {
        try await TestShop().run { client in
            #expect(try await client.execute(uri: "/assets/order.js", method: .get) { $0 }.status == .ok)
            #expect(try await client.execute(uri: "/assets/app.css", method: .get) { $0 }.status == .ok)
            let openAPI = try await client.execute(uri: "/openapi.yaml", method: .get) { $0 }
            #expect(openAPI.text.hasPrefix("openapi: 3"))
            #expect(try await client.execute(uri: "/health", method: .get) { $0 }.status == .ok)
        }
    }

    @Test func unknownRoutesAnswerJSON404() async throws {
        try await TestShop().run { client in
            let response = try await client.execute(uri: "/api/nothing-here", method: .get) { $0 }
            #expect(response.status == .notFound)
            #expect(try response.decode(ErrorBody.self).error == "not_found")
        }
    }
}
