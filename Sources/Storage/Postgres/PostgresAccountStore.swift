import Foundation
import Membership
import PostgresNIO

/// Accounts and sessions in PostgreSQL: a session made through one server works on every other.
public struct PostgresAccountStore: AccountStore {
    let database: PostgresDatabase
    let now: @Sendable () -> Date

    init(database: PostgresDatabase, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    public func create(username: String, name: String, passwordHash: String, role: Role) async throws -> Account {
        let createdAt = now()
        // The unique username decides between two servers creating the same name at once.
        guard let row = try await database.rows("""
            INSERT INTO account (username, name, password_hash, role, created_at)
            VALUES (\(username), \(name), \(passwordHash), \(role.rawValue), \(createdAt.storedValue))
            ON CONFLICT (username) DO NOTHING RETURNING id
            """).first
        else { throw AccountError.usernameTaken(username) }
        return Account(id: try row.decode(Int64.self), username: username, name: name, role: role, createdAt: createdAt)
    }

    public func credentials(username: String) async throws -> (account: Account, passwordHash: String?)? {
        try await database.rows("""
            SELECT \(unescaped: Self.accountColumns), a.password_hash FROM account a WHERE a.username = \(username)
            """).first.map { row in
            (try Self.account(row), try row.makeRandomAccess().decode("password_hash", as: String?.self))
        }
    }

    public func setPassword(accountID: Int64, hash: String) async throws {
        _ = try await database.rows("UPDATE account SET password_hash = \(hash) WHERE id = \(accountID)")
    }

    public func rename(accountID: Int64, username: String) async throws {
        do {
            _ = try await database.rows("UPDATE account SET username = \(username) WHERE id = \(accountID)")
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            // The unique username decides between two renames (or sign-ups) to one name at once.
            throw AccountError.usernameTaken(username)
        }
    }

    public func accounts() async throws -> [Account] {
        try await database.rows("SELECT \(unescaped: Self.accountColumns) FROM account a ORDER BY a.id").map(Self.account)
    }

    public func hasStaff() async throws -> Bool {
        try await !database.rows("SELECT 1 FROM account WHERE role = 'staff' LIMIT 1").isEmpty
    }

    public func createSession(token: String, accountID: Int64, expires: Date) async throws {
        try await database.transaction { connection in
            try await connection.run("DELETE FROM session WHERE expires < \(Date().storedValue)")
            try await connection.run("""
                INSERT INTO session (token, account_id, expires) VALUES (\(token), \(accountID), \(expires.storedValue))
                """)
        }
    }

    public func account(sessionToken: String, now: Date) async throws -> Account? {
        try await database.rows("""
            SELECT \(unescaped: Self.accountColumns)
            FROM session s JOIN account a ON a.id = s.account_id
            WHERE s.token = \(sessionToken) AND s.expires > \(now.storedValue)
            """).first.map(Self.account)
    }

    public func deleteSession(token: String) async throws {
        _ = try await database.rows("DELETE FROM session WHERE token = \(token)")
    }

    public func claimSignInAttempt(username: String, at time: Date, since: Date, limit: Int) async throws -> SignInClaim {
        // READ COMMITTED whatever the server's default: the count must see what was committed
        // while this attempt waited for the lock.
        try await database.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { connection in
            // Attempts for one username take turns across every server, so none slips past the count.
            try await connection.run("SELECT pg_advisory_xact_lock(\(PostgresDatabase.signInLock), hashtext(\(username)))")
            try await connection.run("DELETE FROM failed_sign_in WHERE time < \(since.storedValue)")
            let attempts = try await connection.rows("""
                SELECT time FROM failed_sign_in WHERE username = \(username) ORDER BY time
                """).map { Date(storedValue: try $0.decode(Double.self)) }
            guard attempts.count < limit else { return .refused(attempts: attempts) }
            let id = try await connection.rows("""
                INSERT INTO failed_sign_in (username, time) VALUES (\(username), \(time.storedValue)) RETURNING id
                """).first!.decode(Int64.self)
            return .claimed(id: id)
        }
    }

    public func withdrawSignInAttempt(_ id: Int64) async throws {
        _ = try await database.rows("DELETE FROM failed_sign_in WHERE id = \(id)")
    }

    public func markEventShown(_ eventID: Int64, sessionToken: String) async throws -> Bool {
        try await database.transaction { connection in
            let shown = try await connection.rows("""
                SELECT shown_event_id FROM session WHERE token = \(sessionToken) FOR UPDATE
                """).first?.decode(Int64?.self)
            guard shown != eventID else { return true }
            try await connection.run("UPDATE session SET shown_event_id = \(eventID) WHERE token = \(sessionToken)")
            return false
        }
    }

    public func dismissEvent(_ eventID: Int64, accountID: Int64, until: Date) async throws {
        _ = try await database.rows("""
            INSERT INTO event_dismissal (event_id, account_id, until) VALUES (\(eventID), \(accountID), \(until.storedValue))
            ON CONFLICT (event_id, account_id) DO UPDATE SET until = excluded.until
            """)
    }

    public func isEventDismissed(_ eventID: Int64, accountID: Int64, at now: Date) async throws -> Bool {
        try await !database.rows("""
            SELECT 1 FROM event_dismissal
            WHERE event_id = \(eventID) AND account_id = \(accountID) AND until > \(now.storedValue)
            """).isEmpty
    }

    /// What `account(_:)` reads of the account `a`: its columns, whether it has a password, and
    /// its identities' issuers.
    static let accountColumns = """
        a.id, a.username, a.name, a.role, a.created_at, a.password_hash IS NOT NULL AS has_password,
        ARRAY(SELECT i.issuer FROM account_identity i WHERE i.account_id = a.id ORDER BY i.issuer) AS linked_issuers
        """

    /// An account from a row with `accountColumns`.
    static func account(_ row: PostgresRow) throws -> Account {
        let cells = row.makeRandomAccess()
        return Account(
            id: try cells.decode("id"), username: try cells.decode("username"), name: try cells.decode("name"),
            role: Role(rawValue: try cells.decode("role")) ?? .member, createdAt: Date(storedValue: try cells.decode("created_at")),
            hasPassword: try cells.decode("has_password"), linkedIssuers: try cells.decode("linked_issuers"))
    }
}
