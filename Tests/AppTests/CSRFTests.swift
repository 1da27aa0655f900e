import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import App

/// Every state-changing request made under a cookie carries that cookie's anti-CSRF token, or is
/// refused with 403 and changes nothing: the API's (a page script's) in `X-CSRF-Token`, a page
/// form's in `csrf_token`, the sign-in form's bound to the pre-session cookie.
@Suite struct CSRFTests {
    static let formType: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    func kiwi(_ client: some TestClientProtocol) async throws -> Int {
        try await client.json(.get, "/api/stock").decode([String: Int].self)["kiwi"] ?? -1
    }

    @Test func aScriptsAPIWriteNeedsItsSessionsToken() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let other = try await client.staffCookie()
            #expect(staff != other)
            let before = try await kiwi(client)
            for (token, why) in [(nil, "no token"), (HTTPFields.csrfToken(other), "another session's token"),
                                 ("wapiti", "a made-up token"), (String(repeating: "A", count: 43), "a token of the right shape")] {
                var headers: HTTPFields = [.contentType: "application/json", .cookie: staff, .acceptLanguage: "en",
                                           .secFetchSite: "same-origin"]
                if let token { headers[.csrfToken] = token }
                let refused = try await client.execute(uri: "/api/stock/kiwi", method: .put, headers: headers,
                                                       body: ByteBuffer(string: #"{"count":77}"#)) { $0 }
                #expect(refused.status == .forbidden, "\(why)")
                let body = try refused.decode(ErrorBody.self)
                #expect(body.error == "csrf_token", "\(why)")
                #expect(body.message.contains("X-CSRF-Token"), "\(why): \(body.message)")
                #expect(try await kiwi(client) == before, "\(why) changed the stock")
            }
            let korean = try await client.execute(uri: "/api/stock/kiwi", method: .put,
                                                  headers: [.contentType: "application/json", .cookie: staff,
                                                            .secFetchSite: "same-origin"],
                                                  body: ByteBuffer(string: #"{"count":77}"#)) { $0 }
            #expect(try korean.decode(ErrorBody.self).message.contains("토큰"))
            // The helper sends the session's own token, as send.js does from the page.
            #expect(try await client.json(.put, "/api/stock/kiwi", #"{"count":77}"#, cookie: staff,
                                          headers: [.secFetchSite: "same-origin"]).status == .ok)
            #expect(try await kiwi(client) == 77)
            // A client of its own (curl, a till's app) is no browser a forged request could come
            // from: its cookie is enough, as before the token.
            let client2 = try await client.execute(uri: "/api/stock/kiwi", method: .put,
                                                   headers: [.contentType: "application/json", .cookie: staff],
                                                   body: ByteBuffer(string: #"{"count":78}"#)) { $0 }
            let stock = try await kiwi(client)
            #expect(client2.status == .ok && stock == 78)
        }
    }

    @Test func theSignInAnswerAndMeGiveTheSessionsToken() async throws {
        try await TestShop().run { client in
            let signIn = try await client.json(.post, "/api/session", #"{"username":"admin","password":"admin-test-pw"}"#)
            let cookie = String(try #require(signIn.headers[.setCookie]).split(separator: ";")[0])
            let token = try #require(signIn.headers[.csrfToken])
            #expect(token == HTTPFields.csrfToken(cookie))
            #expect(try await client.json(.get, "/api/me", cookie: cookie).headers[.csrfToken] == token)
            // The page a signed-in script reads it from.
            let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { $0 }.text
            #expect(page.contains(#"<meta name="csrf-token" content="\#(token)">"#))
            // Signed out, the old token opens nothing: the session it was made from is gone.
            #expect(try await client.json(.delete, "/api/session", cookie: cookie).status == .noContent)
            let again = try await client.json(.post, "/api/session", #"{"username":"admin","password":"admin-test-pw"}"#)
            #expect(again.headers[.csrfToken] != token)
        }
    }

    /// A guest's order, with no cookie, is as before: no token asked, nothing read.
    @Test func aGuestsOrderWithoutACookieNeedsNoToken() async throws {
        try await TestShop().run { client in
            #expect(try await client.json(.post, "/api/orders", #"{"juice":"kiwiJuice"}"#).status == .created)
            let signedOut = try await client.json(.post, "/api/orders", #"{"juice":"kiwiJuice"}"#,
                                                  headers: [.cookie: "juicemaker_session=" + String(repeating: "0", count: 64)])
            #expect(signedOut.status == .created, "a cookie of no live session gives no authority either")
        }
    }

    @Test func aPageFormNeedsItsSessionsToken() async throws {
        try await TestShop().run { client in
            let member = try await client.memberCookie("jimin")
            let other = try await client.memberCookie("seoyeon")
            for (field, why) in [("", "no token"), ("csrf_token=\(HTTPFields.csrfToken(other))&", "another session's token")] {
                let refused = try await client.execute(uri: "/home/username", method: .post,
                                                       headers: Self.formType + [.cookie: member],
                                                       body: ByteBuffer(string: field + "username=hacked_name&lang=en")) { $0 }
                #expect(refused.status == .forbidden, "\(why)")
                #expect(refused.headers[.contentType]?.hasPrefix("text/html") == true)
                #expect(refused.text.contains("This form has expired"), "\(why): the page says why in the form's language")
                #expect(refused.text.contains(#"<html lang="en">"#))
                #expect(refused.formToken != nil, "the refusal page's header holds a fresh form")
            }
            #expect(try await client.json(.get, "/api/me", cookie: member).text.contains("\"username\":\"jimin\""))
            let renamed = try await client.postForm("/home/username", "username=jimin_two&lang=ko", cookie: member, from: "/home")
            #expect(renamed.status == .found || renamed.status == .seeOther)
            #expect(try await client.json(.get, "/api/me", cookie: member).text.contains("\"username\":\"jimin_two\""))
        }
    }

    /// The sign-out form in every signed-in page's header: a forged one does not sign anyone out.
    @Test func signingOutByFormNeedsTheToken() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let forged = try await client.execute(uri: "/logout", method: .post, headers: Self.formType + [.cookie: staff],
                                                  body: ByteBuffer(string: "")) { $0 }
            #expect(forged.status == .forbidden)
            #expect(try await client.json(.get, "/api/me", cookie: staff).status == .ok)
            let signedOut = try await client.postForm("/logout", "", cookie: staff, from: "/kitchen")
            #expect(signedOut.status == .found)
            #expect(try await client.json(.get, "/api/me", cookie: staff).status == .unauthorized)
        }
    }

    /// Login CSRF: another site cannot sign a browser in as itself, since the sign-in form's token is
    /// bound to a pre-session cookie that only this shop's page set.
    @Test func theSignInFormNeedsThePreSessionCookiesToken() async throws {
        try await TestShop().run { client in
            let page = try await client.execute(uri: "/login", method: .get) { $0 }
            let setCookie = try #require(page.headers[.setCookie])
            #expect(setCookie.hasPrefix("juicemaker_form=") && setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax"))
            let preSession = String(setCookie.split(separator: ";")[0])
            let token = try #require(page.formToken)
            #expect(token == HTTPFields.csrfToken(preSession))
            let form = "username=admin&password=admin-test-pw&lang=ko"
            let otherBrowser = "juicemaker_form=" + RandomToken.make()
            for (cookie, field, why) in [(nil, "", "neither"), (preSession, "", "no token"), (nil, "csrf_token=\(token)&", "no cookie"),
                                         (otherBrowser, "csrf_token=\(token)&", "another browser's cookie")] {
                var headers = Self.formType
                if let cookie { headers[.cookie] = cookie }
                let refused = try await client.execute(uri: "/login", method: .post, headers: headers,
                                                       body: ByteBuffer(string: field + form)) { $0 }
                #expect(refused.status == .forbidden, "\(why)")
                #expect(!(refused.headers[.setCookie] ?? "").contains("juicemaker_session="), "\(why) signed in")
                #expect(refused.text.contains(Words.korean.messages[.formExpired]!), "\(why): said in Korean")
            }
            let signedIn = try await client.execute(uri: "/login", method: .post, headers: Self.formType + [.cookie: preSession],
                                                    body: ByteBuffer(string: "csrf_token=\(token)&" + form)) { $0 }
            #expect(signedIn.status == .found)
            #expect(signedIn.headers[.setCookie]?.contains("juicemaker_session=") == true)
            // Sign-up likewise.
            let forgedSignUp = try await client.execute(uri: "/signup", method: .post, headers: Self.formType,
                                                        body: ByteBuffer(string: "username=planted&password=long-enough-1")) { $0 }
            #expect(forgedSignUp.status == .forbidden)
            #expect(try await client.json(.post, "/api/session", #"{"username":"planted","password":"long-enough-1"}"#).status
                    == .unauthorized, "the forged sign-up made no account")
        }
    }

    /// A page route that draws no page (`/health`) sets no pre-session cookie, nor does the API.
    @Test func onlyPagesSetThePreSessionCookie() async throws {
        try await TestShop().run { client in
            let health = try await client.execute(uri: "/health", method: .get) { $0 }
            let stock = try await client.execute(uri: "/api/stock", method: .get) { $0 }
            let page = try await client.execute(uri: "/", method: .get) { $0 }
            #expect(health.headers[.setCookie] == nil)
            #expect(stock.headers[.setCookie] == nil)
            #expect(page.headers[.setCookie]?.hasPrefix("juicemaker_form=") == true)
        }
    }

    @Test func tokensAreTiedToTheirSecretAndComparedWhole() {
        let secret = RandomToken.make()
        let token = CSRFToken.token(for: secret)
        #expect(token.utf8.count == 43)
        #expect(CSRFToken.isValid(token, for: secret))
        #expect(!CSRFToken.isValid(token, for: RandomToken.make()))
        #expect(!CSRFToken.isValid(String(token.dropLast()), for: secret))
        #expect(!CSRFToken.isValid(token + "A", for: secret))
        #expect(!CSRFToken.isValid("", for: secret))
    }
}

private func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
    var fields = lhs
    fields.append(contentsOf: rhs)
    return fields
}
