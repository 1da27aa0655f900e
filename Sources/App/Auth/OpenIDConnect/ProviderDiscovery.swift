import Foundation

/// The parts of `<issuer>/.well-known/openid-configuration` the sign-in needs.
struct ProviderMetadata: Decodable, Sendable {
    let issuer: String
    let authorizationEndpoint: String
    let tokenEndpoint: String
    let jwksURI: String

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
    }
}

/// The provider's discovery document, fetched on first use and kept for an hour.
actor ProviderDiscovery {
    static let lifetime: TimeInterval = 3600

    private let issuer: String
    private let http: ProviderHTTP
    private let now: @Sendable () -> Date
    private var cached: (metadata: ProviderMetadata, fetched: Date)?

    init(issuer: String, http: ProviderHTTP, now: @escaping @Sendable () -> Date) {
        self.issuer = issuer
        self.http = http
        self.now = now
    }

    func metadata() async throws -> ProviderMetadata {
        if let cached, now().timeIntervalSince(cached.fetched) < Self.lifetime {
            return cached.metadata
        }
        let url = Self.discoveryURL(of: issuer)
        let metadata = try await http.getJSON(url, as: ProviderMetadata.self)
        // OpenID Connect Discovery §4.3: a document naming another issuer must not be used.
        guard metadata.issuer == issuer else {
            throw OpenIDError.providerUnavailable("discovery names issuer \(metadata.issuer), expected \(issuer)")
        }
        cached = (metadata, now())
        return metadata
    }

    static func discoveryURL(of issuer: String) -> String {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        return base + "/.well-known/openid-configuration"
    }
}
