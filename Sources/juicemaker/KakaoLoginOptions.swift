import App
import ArgumentParser
import Foundation

/// Sign-in with Kakao (OpenID Connect): on when a client id is given, by flag or environment.
/// The secret may come from a file (systemd's credentials) so that it never shows in `ps`;
/// neither it nor the client id is ever logged.
struct KakaoLoginOptions: ParsableArguments {
    @Option(help: "Kakao's REST API key: members may sign in with Kakao (else $JUICEMAKER_KAKAO_CLIENT_ID). Needs --public-url.")
    var kakaoClientId: String?
    @Option(help: "The app's Client Secret, when it is on in Kakao's console (else $JUICEMAKER_KAKAO_CLIENT_SECRET).")
    var kakaoClientSecret: String?
    @Option(help: "A file holding the Client Secret (one trailing line break is dropped); beats the flag and the environment.")
    var kakaoClientSecretFile: String?
    @Option(help: "The address members reach the shop at (https://juice.example); Kakao returns them to <URL>/login/kakao/callback.")
    var publicUrl: String?
    @Option(help: "Another OpenID Connect provider's issuer instead of Kakao's (https://kauth.kakao.com).")
    var oidcIssuer: String?

    private var environment: [String: String] { ProcessInfo.processInfo.environment }

    private var clientID: String? {
        (kakaoClientId ?? environment["JUICEMAKER_KAKAO_CLIENT_ID"]).flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        guard clientID != nil else { return }
        guard let publicUrl else {
            throw ValidationError("--kakao-client-id needs --public-url, the address Kakao sends members back to")
        }
        guard Self.isSiteAddress(publicUrl) else {
            throw ValidationError("--public-url must be an http(s) address such as https://juice.example, without ?query or #fragment")
        }
        if let oidcIssuer, !Self.isSiteAddress(oidcIssuer) {
            throw ValidationError("--oidc-issuer must be an http(s) address such as https://kauth.kakao.com")
        }
    }

    /// The sign-in settings, the secret read now; nil without a client id.
    func settings() throws -> OpenIDSettings? {
        guard let clientID, let publicUrl else { return nil }
        return OpenIDSettings(clientID: clientID, clientSecret: try clientSecret(), publicURL: publicUrl,
                              issuer: oidcIssuer ?? OpenIDSettings.kakaoIssuer)
    }

    private func clientSecret() throws -> String? {
        guard let kakaoClientSecretFile else {
            return (kakaoClientSecret ?? environment["JUICEMAKER_KAKAO_CLIENT_SECRET"]).flatMap { $0.isEmpty ? nil : $0 }
        }
        return try secret(inFile: kakaoClientSecretFile, naming: "Kakao client secret")
    }

    /// `http(s)://host[:port][/path]` and nothing after.
    private static func isSiteAddress(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty else { return false }
        return url.query == nil && url.fragment == nil && url.user == nil
    }
}
