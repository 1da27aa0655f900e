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
}
