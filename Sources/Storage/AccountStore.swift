import struct Foundation.Date
import Membership

/// Accounts and sign-in sessions. Sessions live in the database so that any server
/// sharing it can serve any signed-in person.
public protocol AccountStore: Sendable {
    /// Throws `AccountError.usernameTaken` when the name is in use.
    func create(username: String, name: String, passwordHash: String, role: Role) async throws -> Account
    /// The account and its password hash, for checking a sign-in.
    func credentials(username: String) async throws -> (account: Account, passwordHash: String)?
    func accounts() async throws -> [Account]
    func hasStaff() async throws -> Bool

    func createSession(token: String, accountID: Int64, expires: Date) async throws
    /// The account a live session belongs to; nil when unknown or expired.
    func account(sessionToken: String, now: Date) async throws -> Account?
    func deleteSession(token: String) async throws

    func recordFailedSignIn(username: String, at time: Date) async throws
    /// Failed sign-ins for this username since `since`, oldest first.
    func failedSignIns(username: String, since: Date) async throws -> [Date]
    func clearFailedSignIns(username: String) async throws

    /// Records that the event pop-up was shown in this session; true when it already was ("appears once").
    func markEventShown(_ eventID: Int64, sessionToken: String) async throws -> Bool
    /// Hides an event for this member until `until` ("오늘 하루 보지 않기").
    func dismissEvent(_ eventID: Int64, accountID: Int64, until: Date) async throws
    func isEventDismissed(_ eventID: Int64, accountID: Int64, at now: Date) async throws -> Bool
}
