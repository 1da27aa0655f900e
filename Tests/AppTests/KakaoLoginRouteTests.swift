import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import JuiceBar
import Membership
import ShopBasics
import Storage
import Testing
@testable import App

/// The Kakao routes of the real app, its provider the test provider on 127.0.0.1 (OpenIDConnectTestProvider.swift):
/// `/login/kakao` starts a flow with PKCE, a state and a nonce bound to the browser; its return signs a member
/// in once, and is refused — the sign-in page, no session, nothing made — when the state is unknown or used,
/// the id_token carries another flow's nonce, the browser is another, or the member said no.
@Suite struct KakaoLoginRouteTests {
    @Test func theStartSendsTheBrowserToTheProviderWithStateNonceAndChallenge() async throws {
        try await KakaoShop.run { kakao in
            let flow = try await kakao.start()
            #expect(flow.location.hasPrefix(kakao.issuer + "/authorize?"))
            #expect(flow.query["response_type"] == "code" && flow.query["client_id"] == OpenIDTestSetup.clientID)
            #expect(flow.query["redirect_uri"] == "http://shop.test/login/kakao/callback")
            #expect(flow.state.count == 43 && flow.nonce.count == 43 && flow.state != flow.nonce)
            #expect(flow.query["code_challenge_method"] == "S256" && flow.query["code_challenge"]?.count == 43)
            #expect(flow.query["prompt"] == nil)
            for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=600"] {
                #expect(flow.setCookie.contains(attribute), "\(flow.setCookie)")
            }
            let another = try await kakao.start()
            #expect(another.state != flow.state && another.nonce != flow.nonce && another.binding != flow.binding)
        }
    }

    @Test func withoutAClientIDThereIsNoKakaoLogin() async throws {
        try await TestShop().run { client in
            for uri in ["/login/kakao", "/login/kakao/callback?code=c&state=s"] {
                let response = try await client.execute(uri: uri, method: .get) { $0 }
                #expect(response.status == .notFound, "\(uri)")
            }
        }
    }

    @Test func aReturnSignsInANewMemberNamedFromTheNickname() async throws {
        try await KakaoShop.run { kakao in
            let flow = try await kakao.start()
            try await kakao.answer(flow, subject: "1001", nickname: "김철수")
            let response = try await kakao.callback(flow, browser: flow.binding)
            #expect(response.status == .found && response.headers[.location] == "/home")
            let me = try await kakao.me(try #require(response.session))
            #expect(me.username == "gimcheolsu" && me.name == "김철수" && me.role == .member)
            #expect(me.hasPassword == false && me.identities == [kakao.issuer])

            let request = try #require(kakao.provider.read { $0.tokenRequests.last })
            #expect(request.fields["code"] == "code-1" && request.fields["redirect_uri"] == flow.query["redirect_uri"])
            // Computed here, not by the code under test: base64url(SHA-256(code_verifier)) == code_challenge.
            let verifier = try #require(request.fields["code_verifier"])
            let challenge = Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
            #expect(verifier.count >= 43 && challenge == flow.query["code_challenge"])
        }
    }

    @Test func anUnknownStateIsRefusedAndLeavesTheRealFlowUsable() async throws {
        try await KakaoShop.run { kakao in
            let flow = try await kakao.start()
            try await kakao.answer(flow)
            let before = try await kakao.accountCount()
            let unknown = try await kakao.callback(flow, query: "code=code-1&state=\(RandomToken.make())", browser: flow.binding)
            try kakao.expectRefused(unknown, .badRequest, saying: .expired)
            #expect(try await kakao.accountCount() == before)
            #expect(kakao.provider.read { $0.tokenRequests.isEmpty }, "an unknown state never reaches the provider")
            #expect(try await kakao.callback(flow, browser: flow.binding).session != nil)
        }
    }

    @Test func aStateIsUsedOnce() async throws {
        try await KakaoShop.run { kakao in
            let flow = try await kakao.start()
            try await kakao.answer(flow)
            #expect(try await kakao.callback(flow, browser: flow.binding).session != nil)
            let again = try await kakao.callback(flow, browser: flow.binding)
            try kakao.expectRefused(again, .badRequest, saying: .expired)
            #expect(kakao.provider.read { $0.tokenRequests.count } == 1)
        }
    }

    @Test func aHeadRequestLeavesTheStateForTheBrowsersReturn() async throws {
        try await KakaoShop.run { kakao in
            let flow = try await kakao.start()
            try await kakao.answer(flow)
            let head = try await kakao.client.execute(uri: "/login/kakao/callback?code=code-1&state=\(flow.state)",
                                                      method: .head, headers: [.cookie: flow.binding]) { $0 }
            #expect(head.status == .ok)
            #expect(try await kakao.callback(flow, browser: flow.binding).session != nil)
            #expect(kakao.provider.read { $0.tokenRequests.count } == 1)
        }
    }

    @Test func aStateExpiresAfterTenMinutes() async throws {
        try await KakaoShop.run { kakao in
            let late = try await kakao.start()
            let inTime = try await kakao.start()
            kakao.shop.clock.advance(by: KakaoLogin.pendingLifetime - 1)
            try await kakao.answer(inTime)
            #expect(try await kakao.callback(inTime, browser: inTime.binding).session != nil)
            kakao.shop.clock.advance(by: 2)
            try await kakao.answer(late)
            try kakao.expectRefused(try await kakao.callback(late, browser: late.binding), .badRequest, saying: .expired)
        }
    }

    /// An id_token taken from one flow and slipped into another: its nonce is the first flow's.
    @Test func anotherFlowsNonceIsRefused() async throws {
        try await KakaoShop.run { kakao in
            let first = try await kakao.start()
            try await kakao.answer(first, subject: "1001")
            #expect(try await kakao.callback(first, browser: first.binding).session != nil)
            let firstToken = kakao.provider.read { $0.idToken }
            let before = try await kakao.accountCount()

            let second = try await kakao.start()
            try await kakao.answer(second, subject: "1002", nonce: first.nonce)
            try kakao.expectRefused(try await kakao.callback(second, browser: second.binding), .unauthorized, saying: .refused)
            let third = try await kakao.start()
            kakao.provider.update { $0.idToken = firstToken }
            try kakao.expectRefused(try await kakao.callback(third, browser: third.binding), .unauthorized, saying: .refused)
            #expect(try await kakao.accountCount() == before)
        }
    }

    @Test func aReturnToAnotherBrowserIsRefused() async throws {
        try await KakaoShop.run { kakao in
            let before = try await kakao.accountCount()
            let started = try await kakao.start()
            try await kakao.answer(started)
            try kakao.expectRefused(try await kakao.callback(started, browser: nil), .badRequest, saying: .otherBrowser)
            let victims = try await kakao.start()
            let attackers = try await kakao.start()
            try kakao.expectRefused(try await kakao.callback(victims, browser: attackers.binding), .badRequest, saying: .otherBrowser)
            #expect(kakao.provider.read { $0.tokenRequests.isEmpty })
            #expect(try await kakao.accountCount() == before)
        }
    }

    /// The member pressed Deny: the page speaks the language the flow started in, not the return's.
    @Test func aDenialIsTheSignInPageInTheFlowsLanguage() async throws {
        try await KakaoShop.run { kakao in
            let before = try await kakao.accountCount()
            let english = try await kakao.start("?lang=en")
            let denied = try await kakao.callback(english, query: "error=access_denied&state=\(english.state)",
                                                  browser: english.binding, headers: [.acceptLanguage: "ko"])
            try kakao.expectRefused(denied, .forbidden, saying: .denied, in: .en)
            let korean = try await kakao.start()
            let koreanDenied = try await kakao.callback(korean, query: "error=access_denied&state=\(korean.state)",
                                              browser: korean.binding, headers: [.acceptLanguage: "en"])
            try kakao.expectRefused(koreanDenied, .forbidden, saying: .denied, in: .ko)
            #expect(kakao.provider.read { $0.tokenRequests.isEmpty })
            #expect(try await kakao.accountCount() == before)
        }
    }

    /// A nickname that is the staff account's username makes a member of another name, and the
    /// subject's next sign-in finds that member whatever its nickname has become.
    @Test func kakaoNeverMakesStaffAndFindsTheSameMemberAgain() async throws {
        try await KakaoShop.run { kakao in
            let staff = try await kakao.me(try await kakao.client.staffCookie())
            let first = try await kakao.me(try #require(try await kakao.signIn(subject: "2001", nickname: staff.username)))
            #expect(first.role == .member && first.username != staff.username && first.id != staff.id)
            let count = try await kakao.accountCount()
            let again = try await kakao.me(try #require(try await kakao.signIn(subject: "2001", nickname: "다른이름")))
            #expect(again.id == first.id && again.username == first.username)
            #expect(try await kakao.accountCount() == count)
            let other = try await kakao.me(try #require(try await kakao.signIn(subject: "2002", nickname: "다른이름")))
            #expect(other.id != first.id && other.role == .member)
        }
    }

    /// The lock-out is the account's: after repeated failed passwords for its username, Kakao does not
    /// open it either until the lock opens again.
    @Test func aLockedOutMemberIsNotSignedInThroughKakaoEither() async throws {
        try await KakaoShop.run { kakao in
            let member = try await kakao.me(try #require(try await kakao.signIn(subject: "4001", nickname: "김철수")))
            for _ in 0..<5 {
                let guess = try await kakao.client.json(
                    .post, "/api/session", #"{"username":"\#(member.username)","password":"wrong-password"}"#)
                #expect(guess.status == .unauthorized)
            }
            let flow = try await kakao.start()
            try await kakao.answer(flow, subject: "4001", nickname: "김철수")
            let locked = try await kakao.callback(flow, browser: flow.binding)
            #expect(locked.status == .tooManyRequests && locked.session == nil)
            #expect(locked.text.contains(#"action="/login"#))
            kakao.shop.clock.advance(by: 16 * 60)
            #expect(try await kakao.signIn(subject: "4001", nickname: "김철수") != nil, "open again after the lock")
        }
    }

    /// The provider vouches for an email; an email is no proof of who holds a password account here.
    @Test func anEmailNeverLinksToAnExistingMember() async throws {
        try await KakaoShop.run { kakao in
            let jimin = try await kakao.me(try await kakao.client.memberCookie("jimin"))
            let session = try await kakao.signIn(subject: "3001", nickname: "jimin", email: "jimin@example.com")
            let newcomer = try await kakao.me(try #require(session))
            #expect(newcomer.id != jimin.id && newcomer.username != "jimin" && newcomer.identities == [kakao.issuer])
            #expect(try await kakao.me(try await kakao.client.signIn("jimin", "member-pw-1")).identities.isEmpty)
        }
    }
}

/// A shop whose Kakao login is pointed at a test provider, driven through its routes as a browser would.
struct KakaoShop {
    /// One browser's flow as `GET /login/kakao` started it: the provider URL it was sent to, and its binding cookie.
    struct Flow {
        let location: String
        let setCookie: String
        var query: [String: String] { OpenIDConnectFlowTests.queryItems(of: location) }
        var binding: String { String(setCookie.split(separator: ";")[0]) }
        var state: String { query["state"] ?? "" }
        var nonce: String { query["nonce"] ?? "" }
    }

    let shop: TestShop
    let provider: TestProvider
    let issuer: String
    let client: any TestClientProtocol
    let database: ShopDatabase

    static func run(_ test: @escaping @Sendable (KakaoShop) async throws -> Void) async throws {
        let provider = TestProvider()
        provider.update { $0.keys = [OpenIDTestSetup.providerKey] }
        try await provider.serve { issuer in
            var shop = try TestShop()
            shop.openID = OpenIDSettings(clientID: OpenIDTestSetup.clientID, clientSecret: nil,
                                         publicURL: "http://shop.test/", issuer: issuer)
            try await shop.run { [shop] client in
                // A second connection to the shop's database, to count its accounts.
                let database = try await ShopDatabase.open(shop.databasePath)
                do {
                    try await test(KakaoShop(shop: shop, provider: provider, issuer: issuer, client: client, database: database))
                } catch {
                    await database.close()
                    throw error
                }
                await database.close()
            }
        }
    }

    func start(_ query: String = "") async throws -> Flow {
        let response = try await client.execute(uri: "/login/kakao" + query, method: .get) { $0 }
        #expect(response.status == .found)
        let setCookie = response.headers[values: .setCookie].first { $0.hasPrefix(KakaoLogin.bindingCookieName + "=") }
        return Flow(location: try #require(response.headers[.location]), setCookie: try #require(setCookie))
    }

    /// Has the provider's token endpoint answer a good id_token for the flow (its nonce unless told another).
    func answer(_ flow: Flow, subject: String = "1001", nickname: String = "김철수", email: String? = nil,
                nonce: String? = nil) async throws {
        let now = Int(shop.clock.now.timeIntervalSince1970)
        let claims = TestIDTokenClaims(iss: issuer, sub: subject, aud: .one(OpenIDTestSetup.clientID), exp: now + 300,
                                       iat: now, nonce: nonce ?? flow.nonce, nickname: nickname, picture: nil, email: email)
        let token = try await OpenIDTestSetup.providerKey.sign(claims)
        provider.update { $0.idToken = token }
    }

    /// The provider sending the browser back (with a code unless `query` says otherwise); `browser` is its cookie.
    func callback(_ flow: Flow, query: String? = nil, browser: String?, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        if let browser { headers[.cookie] = browser }
        return try await client.execute(uri: "/login/kakao/callback?" + (query ?? "code=code-1&state=\(flow.state)"),
                                        method: .get, headers: headers) { $0 }
    }

    /// A whole Kakao sign-in in a fresh browser; the session cookie it ends with.
    func signIn(subject: String, nickname: String, email: String? = nil) async throws -> String? {
        let flow = try await start()
        try await answer(flow, subject: subject, nickname: nickname, email: email)
        return try await callback(flow, browser: flow.binding).session
    }

    func me(_ session: String) async throws -> Me {
        let response = try await client.json(.get, "/api/me", cookie: session)
        #expect(response.status == .ok)
        return try response.decode()
    }

    func accountCount() async throws -> Int { try await database.accounts.accounts().count }

    /// A refused return: the sign-in page with the notice in `language` (Korean unless told), no session.
    func expectRefused(_ response: TestResponse, _ status: HTTPResponse.Status, saying notice: AccountNotice,
                       in language: Language = .ko, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.session == nil, sourceLocation: sourceLocation)
        let words = try #require(Words.of(language).account.notices[notice], sourceLocation: sourceLocation)
        #expect(response.text.contains(words), "\(response.text.prefix(300))", sourceLocation: sourceLocation)
        #expect(response.text.contains(#"action="/login"#), sourceLocation: sourceLocation)
    }

    /// `GET /api/me`'s answer.
    struct Me: Decodable {
        let id: Int64
        let username: String
        let name: String
        let role: Role
        let hasPassword: Bool
        let identities: [String]
    }
}

extension TestResponse {
    /// The session cookie this answer starts, if it starts one.
    var session: String? {
        headers[values: .setCookie].first { $0.hasPrefix(SessionMiddleware.cookieName + "=") && !$0.contains("Max-Age=0") }
            .map { String($0.split(separator: ";")[0]) }
    }
}
