import Membership
import Storage

/// An account as the API shows it (`GET /api/me`) and `users list --json` prints it: no password, no dates.
public struct AccountAnswer: Encodable, Sendable {
    public let id: Int64
    public let username: String
    public let name: String
    public let role: Role
    /// False for a member made by a Kakao sign-in who has set no password yet.
    public let hasPassword: Bool
    /// The issuers of the outside identities linked to the account (`https://kauth.kakao.com`).
    public let identities: [String]

    public init(_ account: Account) {
        id = account.id
        username = account.username
        name = account.name
        role = account.role
        hasPassword = account.hasPassword
        identities = account.linkedIssuers
    }

    /// The linked identities for a person to read: `kakao` for Kakao's, other issuers as they
    /// are, `-` for none.
    public var identitiesText: String {
        identities.isEmpty ? "-" : identities.map { $0 == ExternalIdentity.kakaoIssuer ? "kakao" : $0 }.joined(separator: ",")
    }
}
