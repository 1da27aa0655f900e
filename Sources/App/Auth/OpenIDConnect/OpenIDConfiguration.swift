import Foundation
import NIOCore
import Storage

/// Where and as whom the shop signs its members in with OpenID Connect (Kakao by default); from the serve flags.
struct OpenIDConfiguration: Sendable {
    var issuer: String
    /// Kakao: the app's REST API key.
    var clientID: String
    /// Sent as `client_secret` (client_secret_post) when set; Kakao needs it only when 'Client Secret' is on.
    var clientSecret: String?
    /// `<public-url>/login/kakao/callback`, registered at the provider.
    var redirectURI: String
    /// Kakao: "openid profile_nickname profile_image"; other providers: "openid profile".
    var scope: String

    static let kakaoIssuer = "https://kauth.kakao.com"
    static let kakaoScope = "openid profile_nickname profile_image"

    init(issuer: String = Self.kakaoIssuer, clientID: String, clientSecret: String? = nil,
         redirectURI: String, scope: String? = nil) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.redirectURI = redirectURI
        self.scope = scope ?? (issuer == Self.kakaoIssuer ? Self.kakaoScope : "openid profile")
    }
}

/// How long a provider call may take before the sign-in fails as `providerUnavailable`.
struct OpenIDTimeouts: Sendable {
    var connect: TimeAmount = .seconds(5)
    /// The whole request, connecting included.
    var request: TimeAmount = .seconds(10)

    static let standard = OpenIDTimeouts()
}

/// Who the provider says signed in, after the id_token passed every check.
struct OpenIDSignIn: Sendable, Hashable {
    let identity: ExternalIdentity
    let nickname: String?
    let picture: String?
    /// Kakao sends it only when the member verified it; never used to match or link accounts.
    let email: String?
}

/// Why a sign-in at the provider failed; the string is a short reason for the log, never shown to the member.
enum OpenIDError: Error, Hashable {
    /// Down, slow (a timeout), or answering something that is not the protocol.
    case providerUnavailable(String)
    /// The token endpoint refused the code (a 4xx): used, expired, or not ours.
    case tokenRefused(String)
    /// The id_token failed a check: algorithm, key, signature, iss, aud, exp/iat, nonce.
    case tokenInvalid(String)
}
