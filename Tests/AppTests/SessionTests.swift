import App
import Foundation
import Hummingbird
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
                try await client.postForm("/login", form)
            }
            let local = try await post("username=admin&password=admin-test-pw&next=%2F%3Fstock%3Dopen")
            #expect(local.status == .found)
            #expect(local.headers[.location] == "/?stock=open")
            // Read as a browser reads them, each of these leads to another site.
            for next in ["%2F%2Fevil.example", "%2F%09%2Fevil.example%2Fphish", "%2F%0D%0A%2Fevil.example",
                         "%2F%5Cevil.example", "%09%2F%2Fevil.example", "https%3A%2F%2Fevil.example", "%20%2F%2Fevil.example"] {
                let elsewhere = try await post("username=admin&password=admin-test-pw&next=\(next)")
                #expect(elsewhere.headers[.location] == "/", "next=\(next)")
            }
            let wrong = try await post("username=admin&password=wrong-password")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("role=\"alert\""))
        }
    }

    @Test func aBurstOfGuessesForOneUsernameGetsAtMostFiveChecks() async throws {
        try await TestShop().run { client in
            _ = try await client.memberCookie("minsu", password: "right-password")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for guess in 0..<40 {
                    group.addTask {
                        try await client.json(.post, "/api/session", #"{"username":"minsu","password":"wrong-\#(guess)"}"#).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count <= 5)
            #expect(statuses.filter { $0 == .tooManyRequests }.count >= 35)
            #expect(try await client.json(.post, "/api/session", #"{"username":"minsu","password":"right-password"}"#).status
                    == .tooManyRequests)
        }
    }

    @Test func passwordsLongerThanBcryptReadsAreRefused() async throws {
        try await TestShop().run { client in
            let long = String(repeating: "p", count: 73)
            let signUp = try await client.json(.post, "/api/members", #"{"username":"minsu","password":"\#(long)"}"#)
            #expect(signUp.status == .unprocessableContent)
            #expect(signUp.text.contains("password_too_long"))
            let exact = String(repeating: "p", count: 72)
            #expect(try await client.json(.post, "/api/members", #"{"username":"minsu","password":"\#(exact)"}"#).status == .created)
        }
    }
}
