import Crypto
import Foundation
import Logging
import Testing
@testable import App

/// The calls to the provider: the authorization URL and token request carry PKCE and the client secret,
/// the discovery document and keys are cached, and a refused, failing or silent provider is an OpenIDError.
@Suite struct OpenIDConnectFlowTests {
    static func queryItems(of url: String) -> [String: String] {
        let items = URLComponents(string: url)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    @Test func theTokenRequestCarriesTheVerifierWhoseS256WasTheChallenge() async throws {
        try await OpenIDTestSetup.run { setup in
            let verifier = PKCE.verifier()
            let url = try await setup.client.authorizationURL(state: "state-1", nonce: "nonce-1", codeVerifier: verifier,
                                                              prompt: "login")
            #expect(url.hasPrefix(setup.issuer + "/authorize?"))
            let query = Self.queryItems(of: url)
            #expect(query["response_type"] == "code" && query["client_id"] == OpenIDTestSetup.clientID)
            #expect(query["redirect_uri"] == "http://shop.test/login/kakao/callback" && query["scope"] == "openid profile")
            #expect(query["state"] == "state-1" && query["nonce"] == "nonce-1" && query["prompt"] == "login")
            #expect(query["code_challenge_method"] == "S256")

            let token = try await setup.signed()
            setup.provider.update { $0.idToken = token }
            _ = try await setup.client.signIn(code: "code-1", codeVerifier: verifier, nonce: OpenIDTestSetup.nonce)
            let request = try #require(setup.provider.read { $0.tokenRequests.last })
            #expect(request.contentType == "application/x-www-form-urlencoded")
            #expect(request.fields["grant_type"] == "authorization_code" && request.fields["code"] == "code-1")
            #expect(request.fields["redirect_uri"] == "http://shop.test/login/kakao/callback")
            #expect(request.fields["client_id"] == OpenIDTestSetup.clientID)
            #expect(request.fields["client_secret"] == nil)
            // Computed here, not by the code under test: base64url(SHA-256(code_verifier)) == code_challenge.
            let sent = try #require(request.fields["code_verifier"])
            let challenge = Data(SHA256.hash(data: Data(sent.utf8))).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(sent == verifier && query["code_challenge"] == challenge)
        }
    }

    @Test func theChallengeIsRFC7636sS256AndTokensAre256RandomBits() {
        // RFC 7636, appendix B.
        #expect(PKCE.challenge(of: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let tokens = (0..<50).map { _ in RandomToken.make() }
        #expect(Set(tokens).count == tokens.count)
        let urlSafe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(tokens.allSatisfy { $0.count == 43 && $0.allSatisfy(urlSafe.contains) })
    }

    @Test func withoutPromptTheURLHasNone() async throws {
        try await OpenIDTestSetup.run { setup in
            let url = try await setup.client.authorizationURL(state: "s", nonce: "n", codeVerifier: PKCE.verifier(), prompt: nil)
            #expect(Self.queryItems(of: url)["prompt"] == nil)
        }
    }

    @Test func theClientSecretIsSentOnlyWhenConfigured() async throws {
        try await OpenIDTestSetup.run(secret: "s3cret+&=") { setup in
            _ = try await setup.signIn(answering: setup.signed())
            #expect(setup.provider.read { $0.tokenRequests.last?.fields["client_secret"] } == "s3cret+&=")
        }
    }

    @Test func discoveryAndKeysAreFetchedOnceForManySignIns() async throws {
        try await OpenIDTestSetup.run { setup in
            for _ in 0..<4 {
                _ = try await setup.signIn(answering: setup.signed())
                setup.clock.advance(by: 600)
            }
            #expect(setup.provider.read { $0.discoveryFetches } == 1)
            #expect(setup.provider.read { $0.jwksFetches } == 1)
        }
    }

    @Test func signInsArrivingTogetherOnAColdCacheFetchTheKeysOnce() async throws {
        try await OpenIDTestSetup.run { setup in
            _ = try await setup.client.authorizationURL(state: "s", nonce: "n", codeVerifier: "v", prompt: nil)
            let token = try await setup.signed()
            setup.provider.update { $0.idToken = token }
            try await withThrowingTaskGroup(of: String.self) { group in
                for attempt in 0..<6 {
                    group.addTask {
                        try await setup.client.signIn(code: "code-\(attempt)", codeVerifier: "v", nonce: OpenIDTestSetup.nonce)
                            .identity.subject
                    }
                }
                for try await subject in group { #expect(subject == "4242") }
            }
            #expect(setup.provider.read { $0.jwksFetches } == 1)
        }
    }

    /// Kakao blocks apps that fetch its keys too often: an unknown kid refetches them at most once a minute.
    @Test func anUnknownKidRefetchesTheKeysAtMostOnceAMinute() async throws {
        try await OpenIDTestSetup.run { setup in
            _ = try await setup.signIn(answering: setup.signed())
            let rotated = try ProviderKey(kid: "key-2")
            setup.provider.update { $0.keys.append(rotated) }
            let tokenOfTheNewKey = try await rotated.sign(setup.claims())
            // Within the minute after the first fetch: refused, and the keys are not fetched again.
            #expect(await setup.refusal(of: tokenOfTheNewKey)?.isTokenInvalid == true)
            #expect(setup.provider.read { $0.jwksFetches } == 1)

            setup.clock.advance(by: 61)
            #expect(try await setup.signIn(answering: tokenOfTheNewKey).identity.subject == "4242")
            #expect(setup.provider.read { $0.jwksFetches } == 2)
            for forgedKid in ["key-3", "key-4", "key-5"] {
                let forged = try await rotated.sign(setup.claims(), kid: forgedKid)
                #expect(await setup.refusal(of: forged)?.isTokenInvalid == true)
            }
            #expect(setup.provider.read { $0.jwksFetches } == 2)
            setup.clock.advance(by: 61)
            #expect(try await setup.refusal(of: rotated.sign(setup.claims(), kid: "key-6"))?.isTokenInvalid == true)
            #expect(setup.provider.read { $0.jwksFetches } == 3)
        }
    }

    @Test func aRefusedCodeIsTokenRefusedAndAFailingProviderUnavailable() async throws {
        try await OpenIDTestSetup.run { setup in
            let token = try await setup.signed()
            setup.provider.update { $0.tokenStatus = .badRequest }
            #expect(await setup.refusal(of: token)?.isTokenRefused == true)
            setup.provider.update { $0.tokenStatus = .internalServerError }
            #expect(await setup.refusal(of: token)?.isProviderUnavailable == true)
        }
    }

    @Test func aDiscoveryDocumentNamingAnotherIssuerIsNotUsed() async throws {
        try await OpenIDTestSetup.run { setup in
            setup.provider.update { $0.claimedIssuer = "https://kauth.kakao.com" }
            await #expect(throws: OpenIDError.self) {
                _ = try await setup.client.authorizationURL(state: "s", nonce: "n", codeVerifier: "v", prompt: nil)
            }
            let token = try await setup.signed()
            #expect(await setup.refusal(of: token)?.isProviderUnavailable == true)
        }
    }

    @Test func aProviderThatNeverAnswersIsUnavailableWithinTheTimeout() async throws {
        try await SilentServer.serve { url in
            let configuration = OpenIDConfiguration(issuer: url, clientID: "c", redirectURI: "http://shop.test/cb")
            let timeouts = OpenIDTimeouts(connect: .milliseconds(300), request: .milliseconds(300))
            let client = OpenIDClient(configuration: configuration, logger: Logger(label: "oidc-test"), timeouts: timeouts)
            let started = ContinuousClock.now
            let urlError = await #expect(throws: OpenIDError.self) {
                _ = try await client.authorizationURL(state: "s", nonce: "n", codeVerifier: "v", prompt: nil)
            }
            let signInError = await #expect(throws: OpenIDError.self) {
                _ = try await client.signIn(code: "c", codeVerifier: "v", nonce: "n")
            }
            #expect(urlError?.isProviderUnavailable == true && signInError?.isProviderUnavailable == true)
            // Both calls together inside one standard request timeout (10 s): had the 300 ms been
            // ignored, each alone would wait that long. A tighter bound failed on a loaded CI machine
            // (4.5 s while every suite was starting).
            #expect(ContinuousClock.now - started < .nanoseconds(OpenIDTimeouts.standard.request.nanoseconds))
            try await client.shutdown()
        }
    }

    @Test func aProviderThatIsNotThereIsUnavailable() async throws {
        // Port 9 (discard) on 127.0.0.1: nothing listens, the connection is refused.
        let configuration = OpenIDConfiguration(issuer: "http://127.0.0.1:9", clientID: "c", redirectURI: "http://shop.test/cb")
        let timeouts = OpenIDTimeouts(connect: .milliseconds(300), request: .milliseconds(300))
        let client = OpenIDClient(configuration: configuration, logger: Logger(label: "oidc-test"), timeouts: timeouts)
        let error = await #expect(throws: OpenIDError.self) {
            _ = try await client.authorizationURL(state: "s", nonce: "n", codeVerifier: "v", prompt: nil)
        }
        #expect(error?.isProviderUnavailable == true)
        try await client.shutdown()
    }
}
