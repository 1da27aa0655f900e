import struct Foundation.Date
import Membership

/// Accounts and sign-in sessions. Sessions live in the database so that any server
/// sharing it can serve any signed-in person. The accounts' outside identities (Kakao) too.
public protocol AccountStore: IdentityStore {
    /// Throws `AccountError.usernameTaken` when the name is in use.
    func create(username: String, name: String, passwordHash: String, role: Role) async throws -> Account
    /// The account and its password hash, for checking a sign-in; a nil hash when the account
    /// has no password (made by an outside sign-in).
    func credentials(username: String) async throws -> (account: Account, passwordHash: String?)?
    /// Gives the account a password (its first, or a new one).
    func setPassword(accountID: Int64, hash: String) async throws
    /// Throws `AccountError.usernameTaken` when the name is in use by another account.
    func rename(accountID: Int64, username: String) async throws
    func accounts() async throws -> [Account]
    func hasStaff() async throws -> Bool

    func createSession(token: String, accountID: Int64, expires: Date) async throws
    /// The account a live session belongs to; nil when unknown or expired.
    func account(sessionToken: String, now: Date) async throws -> Account?
    func deleteSession(token: String) async throws

    /// Counts a sign-in attempt *before* its password is checked, atomically across connections,
    /// processes and servers: when fewer than `limit` attempts of this username are on record
    /// since `since`, records this one (as failed, until it is withdrawn) and returns its id;
    /// otherwise records nothing and returns those on record, oldest first. So however many
    /// guesses arrive at once, at most `limit` are ever checked.
    func claimSignInAttempt(username: String, at time: Date, since: Date, limit: Int) async throws -> SignInClaim
    /// Withdraws a claimed attempt whose password proved right.
    func withdrawSignInAttempt(_ id: Int64) async throws

    /// Records that the event pop-up was shown in this session; true when it already was ("appears once").
    func markEventShown(_ eventID: Int64, sessionToken: String) async throws -> Bool
    /// Hides an event for this member until `until` ("오늘 하루 보지 않기").
    func dismissEvent(_ eventID: Int64, accountID: Int64, until: Date) async throws
    func isEventDismissed(_ eventID: Int64, accountID: Int64, at now: Date) async throws -> Bool
}

/// What claiming a sign-in attempt gave.
public enum SignInClaim: Sendable, Equatable {
    /// The attempt is on record and may be checked.
    case claimed(id: Int64)
    /// The username already has its limit of attempts on record: these, oldest first.
    case refused(attempts: [Date])
}
