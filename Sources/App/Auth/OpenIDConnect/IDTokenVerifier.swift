import Foundation
import JWTKit
import Storage

/// The id_token's claims the shop reads. Times are checked by `IDTokenVerifier` against its own clock.
struct IDTokenClaims: JWTIdentityToken {
    let iss: IssuerClaim
    let sub: SubjectClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let iat: IssuedAtClaim
    let nonce: String?
    let nickname: String?
    let name: String?
    let picture: String?
    let email: String?
    let emailVerified: Bool?

    var audience: AudienceClaim { aud }

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, nickname, name, picture, email
        case emailVerified = "email_verified"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Checks an id_token before anything in it is trusted (OpenID Connect Core §3.1.3.7).
struct IDTokenVerifier: Sendable {
    static let leeway: TimeInterval = 60
    static let pinnedAlgorithm = "RS256"

    let issuer: String
    let clientID: String
    let keys: ProviderKeys
    let now: @Sendable () -> Date

    func verify(_ idToken: String, nonce: String, jwksURI: String) async throws -> OpenIDSignIn {
        let kid = try Self.keyID(ofRS256Token: idToken)
        let collection = try await keys.keys(for: kid, jwksURI: jwksURI)
        let claims: IDTokenClaims
        do {
            claims = try await collection.verify(idToken, as: IDTokenClaims.self, expectedAudience: clientID)
        } catch {
            throw OpenIDError.tokenInvalid("signature or aud: \(Self.reason(error))")
        }
        try check(claims, nonce: nonce)
        return OpenIDSignIn(
            identity: ExternalIdentity(issuer: issuer, subject: claims.sub.value),
            nickname: claims.nickname ?? claims.name,
            picture: claims.picture,
            email: claims.emailVerified == false ? nil : claims.email
        )
    }

    /// The header's `kid` (nil when it names none), once its `alg` is RS256 exactly: `none`, HS256 keyed
    /// with our public key and every other algorithm are refused before any key is looked at.
    static func keyID(ofRS256Token idToken: String) throws -> String? {
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse([UInt8](idToken.utf8), as: IDTokenClaims.self).header
        } catch {
            throw OpenIDError.tokenInvalid("malformed: \(reason(error))")
        }
        guard header.alg == pinnedAlgorithm else {
            throw OpenIDError.tokenInvalid("alg \(header.alg?.prefix(20) ?? "missing") is not \(pinnedAlgorithm)")
        }
        // No kid: allowed when the provider has a single key (OpenID Connect Core §10.1), as oidc-provider-mock does.
        guard let kid = header.kid, !kid.isEmpty else { return nil }
        return kid
    }

    func check(_ claims: IDTokenClaims, nonce: String) throws {
        let now = now()
        guard claims.iss.value == issuer else { throw OpenIDError.tokenInvalid("iss \(claims.iss.value.prefix(100))") }
        guard !claims.sub.value.isEmpty else { throw OpenIDError.tokenInvalid("no sub") }
        guard claims.exp.value.addingTimeInterval(Self.leeway) > now else {
            throw OpenIDError.tokenInvalid("expired at \(claims.exp.value)")
        }
        guard claims.iat.value.addingTimeInterval(-Self.leeway) <= now else {
            throw OpenIDError.tokenInvalid("issued in the future at \(claims.iat.value)")
        }
        guard !nonce.isEmpty, claims.nonce == nonce else { throw OpenIDError.tokenInvalid("nonce differs") }
    }

    static func reason(_ error: any Error) -> String {
        String(String(describing: error).prefix(160))
    }
}
