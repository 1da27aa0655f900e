import Foundation
import JWTKit

/// The provider's signing keys (its JWKS), by `kid`. Fetched once and kept; a `kid` we do not know
/// (the provider rotated its keys) fetches the set again, at most once a minute: Kakao blocks apps
/// that fetch it too often, and a forged token's made-up `kid` must not make us do so.
actor ProviderKeys {
    static let refetchInterval: TimeInterval = 60

    private let http: ProviderHTTP
    private let now: @Sendable () -> Date
    private var keys = JWTKeyCollection()
    private var kids: Set<String> = []
    /// Counted by keys, not names: a set listing two keys under one kid has no "only key".
    private var hasOnlyOneKey = false
    private var lastFetch: Date?
    /// The last fetch got no key set: a kid we do not know then says the provider is down, not the token forged.
    private var lastFetchFailed = false
    private var fetching: Task<Void, any Error>?

    init(http: ProviderHTTP, now: @escaping @Sendable () -> Date) {
        self.http = http
        self.now = now
    }

    /// A collection holding the RS256 key named `kid`, or with no `kid` the provider's only key;
    /// `tokenInvalid` when the provider has no such key.
    func keys(for kid: String?, jwksURI: String) async throws -> JWTKeyCollection {
        if !knows(kid), mayFetch() {
            try await fetch(jwksURI)
        }
        guard knows(kid) else {
            if lastFetchFailed { throw OpenIDError.providerUnavailable("no key set since the last fetch failed") }
            throw OpenIDError.tokenInvalid(kid.map { "unknown kid \($0.prefix(100))" } ?? "no kid, and not exactly one key")
        }
        return keys
    }

    private func knows(_ kid: String?) -> Bool {
        kid.map(kids.contains) ?? hasOnlyOneKey
    }

    private func mayFetch() -> Bool {
        if fetching != nil { return true }  // join the fetch in flight
        guard let lastFetch else { return true }
        return now().timeIntervalSince(lastFetch) >= Self.refetchInterval
    }

    /// One fetch at a time; sign-ins arriving meanwhile wait for it instead of fetching again.
    private func fetch(_ jwksURI: String) async throws {
        if let fetching { return try await fetching.value }
        lastFetch = now()
        let task = Task { try await replaceKeys(with: http.getJSON(jwksURI, as: JWKS.self)) }
        fetching = task
        defer { fetching = nil }
        do {
            try await task.value
            lastFetchFailed = false
        } catch {
            lastFetchFailed = true
            throw error
        }
    }

    /// Only RSA keys for signatures, each pinned to RS256 whatever the token's header claims.
    private func replaceKeys(with jwks: JWKS) async throws {
        let signing = jwks.keys.filter(Self.isRS256SigningKey).compactMap { jwk -> (kid: JWKIdentifier?, key: Insecure.RSA.PublicKey)? in
            guard let modulus = jwk.modulus, let exponent = jwk.exponent,
                  let key = try? Insecure.RSA.PublicKey(modulus: modulus, exponent: exponent) else { return nil }
            return (jwk.keyIdentifier, key)
        }
        let collection = JWTKeyCollection()
        for (kid, key) in signing {
            if let kid { await collection.add(rsa: key, digestAlgorithm: .sha256, kid: kid) }
        }
        // The only key also checks tokens whose header names no kid (OpenID Connect Core §10.1).
        if signing.count == 1 { await collection.add(rsa: signing[0].key, digestAlgorithm: .sha256) }
        keys = collection
        hasOnlyOneKey = signing.count == 1
        kids = Set(signing.compactMap { $0.kid?.string })
    }

    private static func isRS256SigningKey(_ jwk: JWK) -> Bool {
        jwk.keyType == .rsa && (jwk.algorithm == nil || jwk.algorithm == .rs256)
    }
}
