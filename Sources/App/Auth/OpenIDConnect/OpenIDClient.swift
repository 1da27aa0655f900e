import AsyncHTTPClient
import Foundation
import Logging

/// The shop's client at one OpenID Connect provider (Kakao by default): builds the authorization URL
/// and turns the code the browser brings back into a verified sign-in. One per server; it keeps the
/// discovery document and the provider's keys between sign-ins.
final class OpenIDClient: Sendable {
    let configuration: OpenIDConfiguration
    private let http: ProviderHTTP
    private let discovery: ProviderDiscovery
    private let verifier: IDTokenVerifier
    private let logger: Logger
    /// Set when this client made its HTTP client and so must shut it down.
    private let ownedHTTPClient: HTTPClient?

    convenience init(configuration: OpenIDConfiguration, httpClient: HTTPClient, logger: Logger,
         timeouts: OpenIDTimeouts = .standard, now: @escaping @Sendable () -> Date = Date.init) {
        self.init(configuration: configuration, httpClient: httpClient, owned: false, logger: logger,
                  timeouts: timeouts, now: now)
    }

    /// With an HTTP client of its own whose connect timeout is `timeouts.connect`; call `shutdown()`.
    convenience init(configuration: OpenIDConfiguration, logger: Logger,
                     timeouts: OpenIDTimeouts = .standard, now: @escaping @Sendable () -> Date = Date.init) {
        self.init(configuration: configuration, httpClient: Self.makeHTTPClient(timeouts: timeouts), owned: true,
                  logger: logger, timeouts: timeouts, now: now)
    }

    private init(configuration: OpenIDConfiguration, httpClient: HTTPClient, owned: Bool, logger: Logger,
                 timeouts: OpenIDTimeouts, now: @escaping @Sendable () -> Date) {
        let http = ProviderHTTP(client: httpClient, timeouts: timeouts)
        self.configuration = configuration
        self.http = http
        self.discovery = ProviderDiscovery(issuer: configuration.issuer, http: http, now: now)
        self.verifier = IDTokenVerifier(issuer: configuration.issuer, clientID: configuration.clientID,
                                        keys: ProviderKeys(http: http, now: now), now: now)
        self.logger = logger
        self.ownedHTTPClient = owned ? httpClient : nil
    }

    static func makeHTTPClient(timeouts: OpenIDTimeouts = .standard) -> HTTPClient {
        var settings = HTTPClient.Configuration()
        settings.timeout = .init(connect: timeouts.connect, read: timeouts.request)
        settings.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: settings)
    }

    /// The provider's authorize URL with response_type=code, client_id, redirect_uri, scope, state, nonce,
    /// code_challenge (S256 of the verifier), code_challenge_method=S256, and prompt when given ("login" to link).
    func authorizationURL(state: String, nonce: String, codeVerifier: String, prompt: String?) async throws -> String {
        let endpoint = try await discovery.metadata().authorizationEndpoint
        var fields = [
            ("response_type", "code"), ("client_id", configuration.clientID),
            ("redirect_uri", configuration.redirectURI), ("scope", configuration.scope),
            ("state", state), ("nonce", nonce),
            ("code_challenge", PKCE.challenge(of: codeVerifier)), ("code_challenge_method", "S256"),
        ]
        if let prompt { fields.append(("prompt", prompt)) }
        let separator = endpoint.contains("?") ? "&" : "?"
        return endpoint + separator + FormEncoding.encode(fields)
    }

    /// Exchanges the code at the token endpoint and verifies the id_token it answers with.
    /// Throws `OpenIDError`: providerUnavailable, tokenRefused (a 4xx) or tokenInvalid.
    func signIn(code: String, codeVerifier: String, nonce: String) async throws -> OpenIDSignIn {
        let metadata = try await discovery.metadata()
        let idToken = try await exchange(code: code, codeVerifier: codeVerifier, at: metadata.tokenEndpoint)
        let signIn = try await verifier.verify(idToken, nonce: nonce, jwksURI: metadata.jwksURI)
        logger.debug("verified id_token", metadata: ["issuer": "\(configuration.issuer)"])
        return signIn
    }

    func shutdown() async throws {
        try await ownedHTTPClient?.shutdown()
    }

    /// The token request (client_secret_post when a secret is set) and its id_token.
    private func exchange(code: String, codeVerifier: String, at tokenEndpoint: String) async throws -> String {
        var fields = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", configuration.redirectURI),
            ("client_id", configuration.clientID), ("code_verifier", codeVerifier),
        ]
        if let secret = configuration.clientSecret { fields.append(("client_secret", secret)) }
        let answer = try await http.postForm(tokenEndpoint, fields: fields)
        switch answer.status {
        case 200..<300:
            let tokens = try ProviderHTTP.decode(TokenAnswer.self, from: answer.body, what: "token endpoint")
            guard let idToken = tokens.idToken else { throw OpenIDError.tokenInvalid("no id_token") }
            return idToken
        case 400..<500:
            let refusal = try? JSONDecoder().decode(TokenRefusal.self, from: answer.body)
            throw OpenIDError.tokenRefused("status \(answer.status): \(refusal?.error ?? "no error code")")
        default:
            throw OpenIDError.providerUnavailable("token endpoint: status \(answer.status)")
        }
    }
}

private struct TokenAnswer: Decodable {
    let idToken: String?
    enum CodingKeys: String, CodingKey { case idToken = "id_token" }
}

/// RFC 6749 §5.2: `{"error": "invalid_grant", …}`.
private struct TokenRefusal: Decodable {
    let error: String
}
