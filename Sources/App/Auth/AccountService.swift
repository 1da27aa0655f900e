import Foundation
import HummingbirdBcrypt
import Logging
import Membership
import NIOCore
import Storage

/// Sign-up, sign-in and sessions. Passwords are kept only as bcrypt hashes, computed off the
/// request threads because a good hash is slow on purpose.
public struct AccountService: Sendable {
    let store: any AccountStore
    let bcryptCost: UInt8
    let now: @Sendable () -> Date
    /// How long a sign-in lasts.
    static let sessionLifetime: TimeInterval = 7 * 24 * 3600

    /// A hash of nothing in particular, checked against when a username is unknown.
    private let decoyHash: String
    private let hasher: PasswordHasher

    public init(store: any AccountStore, bcryptCost: UInt8 = 12, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.bcryptCost = bcryptCost
        self.now = now
        decoyHash = Bcrypt.hash(Self.generatedPassword(), cost: bcryptCost)
        hasher = PasswordHasher(threads: System.coreCount)
    }

    /// Who asks when nobody is on the other end of a connection: the CLI, the first start.
    public static let localClient = "local"

    public func signUp(username: String, password: String, name: String, role: Role,
                       client: String = localClient) async throws -> Account {
        try AccountRules.validate(username: username, password: password, name: name)
        let cost = bcryptCost
        let hash = try await hasher.run(client: client) { Bcrypt.hash(password, cost: cost) }
        return try await store.create(username: username, name: name, passwordHash: hash, role: role)
    }

    /// Signs in: the account, or `invalidCredentials` for a wrong username and a wrong password
    /// alike, or `tooManyAttempts` while the username is locked after repeated failures, or
    /// `passwordNotSet` for a member made by a Kakao sign-in who has no password yet (counted
    /// as a failure all the same, and as slow as a check).
    /// The attempt is counted before the password is checked, so a burst of guesses sent at
    /// once gets no more checks than guesses sent one by one.
    public func signIn(username: String, password: String, client: String) async throws -> Account {
        try AccountRules.validate(password: password)
        // No account has a name outside the rules, so there is nothing to guess or to count.
        guard AccountRules.isValid(username: username) else { throw APIError.invalidCredentials }
        let attempt = try await claimAttempt(username: username)
        let verdict: PasswordVerdict
        do {
            verdict = try await verify(username: username, password: password, client: client)
        } catch {
            // Not checked after all (the hashing queue was full, the store failed): not a guess.
            try? await store.withdrawSignInAttempt(attempt)
            throw error
        }
        switch verdict {
        case .right(let account):
            try await store.withdrawSignInAttempt(attempt)
            return account
        case .wrong: throw APIError.invalidCredentials
        case .notSet: throw APIError.passwordNotSet
        }
    }

    /// What checking a password found.
    enum PasswordVerdict {
        case right(Account)
        /// A wrong username or password alike.
        case wrong
        /// The account has no password (made by a Kakao sign-in).
        case notSet
    }

    /// Counts a sign-in attempt of `username` before anything is checked: its id (withdrawn when it
    /// proves right), or `tooManyAttempts` while the username is locked after repeated failures.
    private func claimAttempt(username: String) async throws -> Int64 {
        let now = now()
        switch try await store.claimSignInAttempt(
            username: username, at: now, since: now - SignInThrottle.window, limit: SignInThrottle.maximumFailures) {
        case .claimed(let id):
            return id
        case .refused(let attempts):
            let openAgain = SignInThrottle.lockedUntil(failures: attempts, now: now) ?? now + SignInThrottle.window
            throw APIError.tooManyAttempts(retryAfter: openAgain.timeIntervalSince(now))
        }
    }

    /// `tooManyAttempts` while the account is locked after repeated failed passwords: the lock-out
    /// is the account's, whichever way in (Kakao too) is tried.
    public func requireNotLockedOut(_ account: Account) async throws {
        try await store.withdrawSignInAttempt(try await claimAttempt(username: account.username))
    }

    func verify(username: String, password: String, client: String) async throws -> PasswordVerdict {
        let credentials = try await store.credentials(username: username)
        guard let credentials, let hash = credentials.passwordHash else {
            // Spend the same time as a real check, so a response's speed does not tell which
            // usernames exist, nor which have no password.
            _ = try await hasher.run(client: client) { [decoyHash] in Bcrypt.verify(password, hash: decoyHash) }
            return credentials == nil ? .wrong : .notSet
        }
        let matches = try await hasher.run(client: client) { Bcrypt.verify(password, hash: hash) }
        return matches ? .right(credentials.account) : .wrong
    }

    /// Gives the member a password: their first, for a member made by a Kakao sign-in. It asks
    /// for no current password, so a caller changing one must check that first.
    public func setPassword(accountID: Int64, password: String, client: String) async throws {
        try AccountRules.validate(newPassword: password)
        let cost = bcryptCost
        let hash = try await hasher.run(client: client) { Bcrypt.hash(password, cost: cost) }
        try await store.setPassword(accountID: accountID, hash: hash)
    }

    /// Gives the account another username; `usernameTaken` when another account has it.
    public func rename(accountID: Int64, username: String) async throws {
        guard AccountRules.isValid(username: username) else { throw AccountError.invalidUsername(username) }
        try await store.rename(accountID: accountID, username: username)
    }

    /// Starts a session and returns its token: 256 random bits.
    public func startSession(for account: Account) async throws -> String {
        var generator = SystemRandomNumberGenerator()
        let token = (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
        try await store.createSession(token: token, accountID: account.id, expires: now() + Self.sessionLifetime)
        return token
    }

    public func accounts() async throws -> [Account] {
        try await store.accounts()
    }

    public func account(sessionToken: String) async throws -> Account? {
        try await store.account(sessionToken: sessionToken, now: now())
    }

    public func endSession(token: String) async throws {
        try await store.deleteSession(token: token)
    }

    /// On a first start there is no staff account: make `admin`, with the given password or a
    /// generated one that is printed once to the log.
    public func ensureAdmin(password: String?, logger: Logger) async throws {
        guard try await !store.hasStaff() else { return }
        let chosen = password ?? Self.generatedPassword()
        do {
            _ = try await signUp(username: "admin", password: chosen, name: "Admin", role: .staff)
        } catch AccountError.usernameTaken {
            // Another server on the same database created it a moment ago; a member who took
            // the name would leave the shop without staff, which must not pass unnoticed.
            guard try await store.hasStaff() else { throw AccountError.usernameTaken("admin") }
            return
        }
        if password == nil {
            logger.notice("created staff account 'admin'; sign in with this password once and keep it safe",
                          metadata: ["password": "\(chosen)"])
        } else {
            logger.notice("created staff account 'admin' with the given password (--admin-password-file or JUICEMAKER_ADMIN_PASSWORD)")
        }
    }

    static func generatedPassword() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<16).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
