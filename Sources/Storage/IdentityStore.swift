import struct Foundation.Date
import Membership

/// A member at an outside OpenID Connect provider: its `iss` and `sub` (Kakao's member number).
public struct ExternalIdentity: Hashable, Sendable, Codable {
    public let issuer: String
    public let subject: String

    /// Kakao's issuer, the provider the shop is set up for.
    public static let kakaoIssuer = "https://kauth.kakao.com"

    public init(issuer: String, subject: String) {
        self.issuer = issuer
        self.subject = subject
    }
}

/// An authorization request in flight: written when the browser is sent to the provider, taken once on its return.
public struct PendingSignIn: Hashable, Sendable {
    /// Random, 256 bits, base64url: the key.
    public let state: String
    /// SHA-256 (hex) of the browser-binding cookie's value.
    public let browser: String
    public let nonce: String
    public let codeVerifier: String
    /// Where to go after ("" = the default landing).
    public let next: String
    /// "ko" | "en": the page language the flow started in.
    public let language: String
    /// nil: sign in (or create); set: link to this signed-in member.
    public let linkingAccountID: Int64?
    /// Started + 10 minutes.
    public let expires: Date

    public init(state: String, browser: String, nonce: String, codeVerifier: String, next: String,
                language: String, linkingAccountID: Int64?, expires: Date) {
        self.state = state
        self.browser = browser
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.next = next
        self.language = language
        self.linkingAccountID = linkingAccountID
        self.expires = expires
    }
}

/// Members' identities at outside OpenID Connect providers, and the sign-ins on their way there.
/// Every `AccountStore` is one (`ShopDatabase.identities`).
public protocol IdentityStore: Sendable {
    func savePendingSignIn(_ pending: PendingSignIn) async throws
    /// Deletes and returns the pending sign-in with this state when it is there and not expired at `now`;
    /// nil otherwise. Single use across servers sharing one database (DELETE … RETURNING). Also
    /// forgets expired ones now and then.
    func takePendingSignIn(state: String, now: Date) async throws -> PendingSignIn?
    /// The member this identity is linked to.
    func account(identity: ExternalIdentity) async throws -> Account?
    /// In one transaction: a new member (role member, no password) with the first free username of
    /// `usernames` (then with a number after it), named `name`, linked to `identity`. When the identity
    /// is already linked (another server raced us), returns that member instead.
    func createMember(identity: ExternalIdentity, usernames: [String], name: String, at: Date) async throws -> Account
    /// Throws IdentityError.linkedToAnother when the identity belongs to another member,
    /// IdentityError.alreadyLinked when this member already has an identity of that issuer.
    /// Linking an identity again to the member it belongs to changes nothing.
    func link(_ identity: ExternalIdentity, to accountID: Int64, at: Date) async throws
    /// Throws IdentityError.onlyWayIn when the member has no password and no other identity,
    /// IdentityError.notLinked when the member has no identity of that issuer.
    func unlink(issuer: String, accountID: Int64) async throws
    /// The member's identities, by issuer.
    func identities(accountID: Int64) async throws -> [ExternalIdentity]
}

/// Why an identity could not be linked or unlinked.
public enum IdentityError: Error, Hashable, Sendable {
    case linkedToAnother, alreadyLinked, onlyWayIn, notLinked

    public var code: String {
        switch self {
        case .linkedToAnother: "identity_linked_to_another"
        case .alreadyLinked: "identity_already_linked"
        case .onlyWayIn: "identity_only_way_in"
        case .notLinked: "identity_not_linked"
        }
    }
}
