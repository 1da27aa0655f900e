import Crypto
import Foundation
import JWTKit
import Logging
import Storage
import Synchronization
import Testing
@testable import App

/// The OpenID Connect client against a real provider on 127.0.0.1 (OpenIDConnectTestProvider.swift):
/// forged and wrong id_tokens are refused, PKCE and the client secret reach the token endpoint, the
/// provider's keys are cached, and a provider that hangs fails within the timeout.
@Suite struct OpenIDConnectTests {
    static let forgerKey = try! ProviderKey(kid: "key-1")

    func withProvider(secret: String? = nil, _ test: @escaping @Sendable (OpenIDTestSetup) async throws -> Void) async throws {
        try await OpenIDTestSetup.run(secret: secret, test)
    }

    @Test func aGoodTokenSignsInWithAudienceAsStringOrArray() async throws {
        try await withProvider { setup in
            let signIn = try await setup.signIn(answering: setup.signed())
            #expect(signIn == OpenIDSignIn(identity: ExternalIdentity(issuer: setup.issuer, subject: "4242"),
                                           nickname: "주스러버", picture: "http://img.test/p.jpg",
                                           email: "member@example.com"))
            let asArray = try await setup.signIn(answering: setup.signed { $0.aud = .many([OpenIDTestSetup.clientID]) })
            #expect(asArray.identity.subject == "4242")
        }
    }

    @Test func algNoneIsRefused() async throws {
        try await withProvider { setup in
            let header = Base64URL.encode(Data(#"{"alg":"none","kid":"key-1","typ":"JWT"}"#.utf8))
            let payload = Base64URL.encode(try JSONEncoder().encode(setup.claims()))
            #expect(await setup.refusal(of: "\(header).\(payload).")?.isTokenInvalid == true)
        }
    }

    /// The classic confusion: HS256 "signed" with the provider's public key, which anyone can read.
    @Test func hs256KeyedWithTheProvidersPublicKeyIsRefused() async throws {
        try await withProvider { setup in
            let jwks = try JSONEncoder().encode(["keys": [OpenIDTestSetup.providerKey.jwk]])
            let secrets = [Data(OpenIDTestSetup.providerKey.privateKey.publicKey.pemRepresentation.utf8),
                           Data(OpenIDTestSetup.providerKey.privateKey.publicKey.derRepresentation), jwks]
            for secret in secrets {
                let keys = JWTKeyCollection()
                await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: "key-1")
                let forged = try await keys.sign(setup.claims(), kid: "key-1")
                #expect(await setup.refusal(of: forged)?.isTokenInvalid == true)
            }
        }
    }

    @Test func anotherKeyUnderTheSameKidIsRefused() async throws {
        try await withProvider { setup in
            let forged = try await Self.forgerKey.sign(setup.claims(), kid: "key-1")
            #expect(await setup.refusal(of: forged)?.isTokenInvalid == true)
            #expect(try await setup.signIn(answering: setup.signed()).identity.subject == "4242")
        }
    }

    /// OpenID Connect Core §10.1: a token may name no kid when the provider has exactly one key.
    @Test func aTokenNamingNoKeyIsCheckedWithTheProvidersOnlyKey() async throws {
        try await withProvider { setup in
            let good = try await OpenIDTestSetup.providerKey.signWithoutKid(setup.claims())
            #expect(try await setup.signIn(answering: good).identity.subject == "4242")
            let forged = try await Self.forgerKey.signWithoutKid(setup.claims())
            #expect(await setup.refusal(of: forged)?.isTokenInvalid == true)
        }
        try await withProvider { setup in
            // Two keys, even under one name: which one signed is not said, so neither is tried.
            setup.provider.update { $0.keys.append(Self.forgerKey) }
            let good = try await OpenIDTestSetup.providerKey.signWithoutKid(setup.claims())
            #expect(await setup.refusal(of: good)?.isTokenInvalid == true)
        }
    }

    @Test func aTokenForAnotherClientIsRefused() async throws {
        try await withProvider { setup in
            let another = try await setup.refusal { $0.aud = .one("another-app") }
            let anotherInAnArray = try await setup.refusal { $0.aud = .many(["another-app"]) }
            // OpenID Connect Core §3.1.3.7: an audience we do not trust beside ours is refused too.
            let shared = try await setup.refusal { $0.aud = .many([OpenIDTestSetup.clientID, "another-app"]) }
            #expect([another, anotherInAnArray, shared].allSatisfy { $0?.isTokenInvalid == true })
        }
    }

    @Test func aTokenFromAnotherIssuerIsRefused() async throws {
        try await withProvider { setup in
            let kakao = try await setup.refusal { $0.iss = "https://kauth.kakao.com" }
            let trailingSlash = try await setup.refusal { $0.iss = setup.issuer + "/" }
            #expect(kakao?.isTokenInvalid == true && trailingSlash?.isTokenInvalid == true)
        }
    }

    @Test func expiredOrFutureTokensAreRefusedBeyondAMinuteOfLeeway() async throws {
        try await withProvider { setup in
            let now = Int(setup.clock.now.timeIntervalSince1970)
            let expired = try await setup.refusal { $0.exp = now - 61 }
            let fromTheFuture = try await setup.refusal { $0.iat = now + 61 }
            #expect(expired?.isTokenInvalid == true && fromTheFuture?.isTokenInvalid == true)
            let justExpired = try await setup.signed { $0.exp = now - 50; $0.iat = now - 400 }
            let justAhead = try await setup.signed { $0.iat = now + 50 }
            _ = try await setup.signIn(answering: justExpired)
            _ = try await setup.signIn(answering: justAhead)
        }
    }

    @Test func aWrongOrMissingNonceIsRefused() async throws {
        try await withProvider { setup in
            let another = try await setup.refusal { $0.nonce = "another-nonce" }
            let missing = try await setup.refusal { $0.nonce = nil }
            let token = try await setup.signed()
            let notTheBrowsers = await setup.refusal(of: token, nonce: "the-browsers-nonce")
            #expect([another, missing, notTheBrowsers].allSatisfy { $0?.isTokenInvalid == true })
        }
    }
}
