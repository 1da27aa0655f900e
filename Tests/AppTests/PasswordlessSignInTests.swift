import App
import Foundation
import Hummingbird
import HummingbirdTesting
import Membership
import Storage
import Testing

/// A member made by a Kakao sign-in has no password: a password sign-in is refused with words
/// that say so, and counted by the lock-out like any failure, until they set one.
@Suite struct PasswordlessSignInTests {
    @Test func aPasswordSignInForAMemberWithoutOneSaysSoAndCountsAsAFailure() async throws {
        let shop = try TestShop()
        try await shop.run { client in
            // The server has made the database; another process on it makes the member.
            let database = try await ShopDatabase.open(shop.databasePath)
            _ = try await database.identities.createMember(
                identity: ExternalIdentity(issuer: ExternalIdentity.kakaoIssuer, subject: "5001"),
                usernames: ["gimcheolsu"], name: "김철수", at: shop.clock.now)
            let body = #"{"username":"gimcheolsu","password":"some-password"}"#
            let english = try await client.json(.post, "/api/session?lang=en", body)
            #expect(english.status == .unauthorized)
            let answer = try JSONDecoder().decode([String: String].self, from: Data(buffer: english.body))
            #expect(answer["error"] == "password_not_set")
            #expect(answer["message"]?.contains("Kakao") == true, "\(answer)")
            #expect(english.headers[.setCookie] == nil)
            let korean = try await client.json(.post, "/api/session?lang=ko", body)
            let koreanAnswer = try JSONDecoder().decode([String: String].self, from: Data(buffer: korean.body))
            #expect(koreanAnswer["error"] == "password_not_set" && koreanAnswer["message"]?.contains("카카오") == true)
            for _ in 2..<SignInThrottle.maximumFailures {
                #expect(try await client.json(.post, "/api/session", body).status == .unauthorized)
            }
            #expect(try await client.json(.post, "/api/session", body).status == .tooManyRequests)
        }
    }

    @Test func onceTheySetAPasswordItSignsThemIn() async throws {
        let shop = try TestShop()
        try await shop.run { client in
            let database = try await ShopDatabase.open(shop.databasePath)
            let member = try await database.identities.createMember(
                identity: ExternalIdentity(issuer: ExternalIdentity.kakaoIssuer, subject: "5002"),
                usernames: ["leeyeonghui"], name: "이영희", at: shop.clock.now)
            let accounts = AccountService(store: database.accounts, bcryptCost: 4)
            await #expect(throws: AccountError.passwordTooShort) {
                try await accounts.setPassword(accountID: member.id, password: "short", client: "test")
            }
            try await accounts.setPassword(accountID: member.id, password: "a-good-password", client: "test")
            let response = try await client.json(.post, "/api/session", #"{"username":"leeyeonghui","password":"a-good-password"}"#)
            #expect(response.status == .ok)
            let me = try await client.json(.get, "/api/me", cookie: String(response.headers[.setCookie]!.split(separator: ";")[0]))
            let answer = try JSONSerialization.jsonObject(with: Data(buffer: me.body)) as? [String: Any]
            #expect(answer?["username"] as? String == "leeyeonghui")
            #expect(answer?["hasPassword"] as? Bool == true)
            #expect(answer?["identities"] as? [String] == [ExternalIdentity.kakaoIssuer])
        }
    }
}
