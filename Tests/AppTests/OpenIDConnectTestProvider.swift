import CryptoExtras
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Testing
@testable import App

/// An id_token's claims as the test provider writes them; `aud` as a string or an array, times as numbers.
struct TestIDTokenClaims: JWTPayload {
    enum Audience: Codable, Sendable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) { self = .one(one) } else { self = .many(try container.decode([String].self)) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .one(let value): try container.encode(value)
            case .many(let values): try container.encode(values)
            }
        }
    }

    var iss: String
    var sub: String
    var aud: Audience
    var exp: Int
    var iat: Int
    var nonce: String?
    var nickname: String?
    var picture: String?
    var email: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A signing key of the test provider, made by swift-crypto; published in the JWKS under `kid`.
struct ProviderKey: Sendable {
    let kid: String
    let privateKey: JWTKit.Insecure.RSA.PrivateKey

    init(kid: String) throws {
        self.kid = kid
        self.privateKey = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    /// The public half as a JWK, as a provider's jwks_uri lists it.
    var jwk: [String: String] {
        let (modulus, exponent) = try! privateKey.publicKey.getKeyPrimitives()
        return ["kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
                "n": Base64URL.encode(modulus), "e": Base64URL.encode(exponent)]
    }

    /// An RS256 token signed with this key, its header naming `kid` (another key's, to forge).
    func sign(_ claims: TestIDTokenClaims, kid named: String? = nil) async throws -> String {
        let keys = JWTKeyCollection()
        let kid = JWKIdentifier(string: named ?? kid)
        await keys.add(rsa: privateKey, digestAlgorithm: .sha256, kid: kid)
        return try await keys.sign(claims, kid: kid)
    }

    /// An RS256 token whose header names no key, as a provider with a single key may send.
    func signWithoutKid(_ claims: TestIDTokenClaims) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(rsa: privateKey, digestAlgorithm: .sha256)
        return try await keys.sign(claims)
    }
}

/// What the test provider serves and what it saw; the tests set the first and read the second.
struct ProviderLog: Sendable {
    var keys: [ProviderKey] = []
    /// Answered by the token endpoint: the id_token, or a refusal with this status.
    var idToken = ""
    var tokenStatus = HTTPResponse.Status.ok
    /// When set, the discovery document names this issuer instead of the real one.
    var claimedIssuer: String?
    var discoveryFetches = 0
    var jwksFetches = 0
    var tokenRequests: [(contentType: String?, fields: [String: String])] = []
}

/// A real OpenID Connect provider for the tests: discovery, JWKS and token endpoint over HTTP on 127.0.0.1.
final class TestProvider: Sendable {
    let log = Mutex(ProviderLog())

    func update(_ change: (inout ProviderLog) -> Void) { log.withLock { change(&$0) } }
    func read<Value: Sendable>(_ value: (ProviderLog) -> Value) -> Value { log.withLock { value($0) } }

    /// Runs the provider on a free port while `test` runs; `test` gets its issuer URL.
    func serve(_ test: @escaping @Sendable (_ issuer: String) async throws -> Void) async throws {
        let application = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                      logger: Logger(label: "test-provider", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await application.test(.live) { client in
            try await test("http://127.0.0.1:\(client.port!)")
        }
    }

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/.well-known/openid-configuration") { request, context in
            let issuer = "http://\(request.head.authority ?? "")"
            let claimed = self.read { $0.claimedIssuer }
            self.update { $0.discoveryFetches += 1 }
            return try Self.json(["issuer": claimed ?? issuer, "authorization_endpoint": issuer + "/authorize",
                                  "token_endpoint": issuer + "/token", "jwks_uri": issuer + "/jwks"])
        }
        router.get("/jwks") { _, _ in
            self.update { $0.jwksFetches += 1 }
            return try Self.json(["keys": self.read { $0.keys.map(\.jwk) }])
        }
        router.post("/token") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 16)
            self.update { $0.tokenRequests.append((request.headers[.contentType], Self.formFields(String(buffer: body)))) }
            let (status, idToken) = self.read { ($0.tokenStatus, $0.idToken) }
            guard status == .ok else { return try Self.json(["error": "invalid_grant"], status: status) }
            return try Self.json(["access_token": "test-access-token", "token_type": "bearer", "id_token": idToken])
        }
        return router
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let body = try JSONEncoder().encode(value)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}

/// A server that accepts connections and never answers: a provider that hangs.
enum SilentServer {
    static func serve(_ test: (_ url: String) async throws -> Void) async throws {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        do {
            try await test("http://127.0.0.1:\(channel.localAddress!.port!)")
        } catch {
            try await channel.close()
            throw error
        }
        try await channel.close()
    }
}

/// A test provider serving on 127.0.0.1, and our client configured for it.
struct OpenIDTestSetup: Sendable {
    static let clientID = "test-rest-api-key"
    static let nonce = "nonce-1"
    // RSA keys take a moment to make: one for all the tests.
    static let providerKey = try! ProviderKey(kid: "key-1")

    let provider: TestProvider
    let client: OpenIDClient
    let issuer: String
    let clock: TestClock

    /// Good claims: each test spoils one of them.
    func claims() -> TestIDTokenClaims {
        let now = Int(clock.now.timeIntervalSince1970)
        return TestIDTokenClaims(iss: issuer, sub: "4242", aud: .one(OpenIDTestSetup.clientID), exp: now + 300,
                                 iat: now, nonce: OpenIDTestSetup.nonce, nickname: "주스러버",
                                 picture: "http://img.test/p.jpg", email: "member@example.com")
    }

    /// The sign-in the browser's return starts, with the token endpoint answering `idToken`.
    func signIn(answering idToken: String, nonce: String = OpenIDTestSetup.nonce) async throws -> OpenIDSignIn {
        provider.update { $0.idToken = idToken }
        return try await client.signIn(code: "code-1", codeVerifier: "verifier-1", nonce: nonce)
    }

    func refusal(of idToken: String, nonce: String = OpenIDTestSetup.nonce) async -> OpenIDError? {
        do {
            _ = try await signIn(answering: idToken, nonce: nonce)
            return nil
        } catch let error as OpenIDError {
            return error
        } catch {
            Issue.record("not an OpenIDError: \(error)")
            return nil
        }
    }

    /// How a token with these claims changed is refused; nil when it signs in.
    func refusal(_ change: (inout TestIDTokenClaims) -> Void) async throws -> OpenIDError? {
        await refusal(of: try await signed(change))
    }

    func signed(_ change: (inout TestIDTokenClaims) -> Void = { _ in }) async throws -> String {
        var claims = claims()
        change(&claims)
        return try await OpenIDTestSetup.providerKey.sign(claims)
    }

    static func run(secret: String? = nil, _ test: @escaping @Sendable (OpenIDTestSetup) async throws -> Void) async throws {
        let provider = TestProvider()
        provider.update { $0.keys = [providerKey] }
        try await provider.serve { issuer in
            let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
            let configuration = OpenIDConfiguration(issuer: issuer, clientID: clientID, clientSecret: secret,
                                                    redirectURI: "http://shop.test/login/kakao/callback")
            let client = OpenIDClient(configuration: configuration, logger: Logger(label: "oidc-test"),
                                      now: { clock.now })
            let setup = OpenIDTestSetup(provider: provider, client: client, issuer: issuer, clock: clock)
            do { try await test(setup) } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }
}

extension OpenIDError {
    var isTokenInvalid: Bool { if case .tokenInvalid = self { true } else { false } }
    var isTokenRefused: Bool { if case .tokenRefused = self { true } else { false } }
    var isProviderUnavailable: Bool { if case .providerUnavailable = self { true } else { false } }
}
