import App
import Foundation
import HummingbirdTesting
import Testing

@Suite struct SessionTests {
    @Test func signInSetsAnHttpOnlyLaxCookieAndSignOutEndsIt() async throws {
        try await TestShop().run { client in
            let signIn = try await client.json(.post, "/api/session", #"{"username":"admin","password":"admin-test-pw"}"#)
            #expect(signIn.status == .ok)
            let setCookie = try #require(signIn.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly"))
            #expect(setCookie.contains("SameSite=Lax"))
            let cookie = String(setCookie.split(separator: ";")[0])
            #expect(try await client.json(.get, "/api/me", cookie: cookie).status == .ok)

            #expect(try await client.json(.delete, "/api/session", cookie: cookie).status == .noContent)
            #expect(try await client.json(.get, "/api/me", cookie: cookie).status == .unauthorized)
            #expect(try await client.json(.put, "/api/stock/kiwi", #"{"count":1}"#, cookie: cookie).status == .unauthorized)
        }
    }

    @Test func aWrongPasswordAndAnUnknownUserGetTheSame401() async throws {
        try await TestShop().run { client in
            let wrongPassword = try await client.json(.post, "/api/session", #"{"username":"admin","password":"nope-nope"}"#)
            let unknownUser = try await client.json(.post, "/api/session", #"{"username":"ghost","password":"nope-nope"}"#)
            #expect(wrongPassword.status == .unauthorized)
            #expect(unknownUser.status == .unauthorized)
            #expect(wrongPassword.text == unknownUser.text)
            #expect(wrongPassword.headers[.setCookie] == nil)
        }
    }

    @Test func theLoginPageSignsInAndGoesOnOnlyToALocalPage() async throws {
        try await TestShop().run { client in
            let page = try await client.execute(uri: "/login", method: .get) { $0 }
            #expect(page.text.contains("아이디") && page.text.contains("비밀번호") && page.text.contains("로그인"))

            func post(_ form: String) async throws -> TestResponse {
                try await client.execute(uri: "/login", method: .post,
                                         headers: [.contentType: "application/x-www-form-urlencoded"],
                                         body: .init(string: form)) { $0 }
            }
            let local = try await post("username=admin&password=admin-test-pw&next=%2F%3Fstock%3Dopen")
            #expect(local.status == .found)
            #expect(local.headers[.location] == "/?stock=open")
            let elsewhere = try await post("username=admin&password=admin-test-pw&next=%2F%2Fevil.example")
            #expect(elsewhere.headers[.location] == "/")
            let wrong = try await post("username=admin&password=wrong-password")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("role=\"alert\""))
        }
    }
}
