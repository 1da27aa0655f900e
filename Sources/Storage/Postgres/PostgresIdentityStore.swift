import Foundation
import Membership
import PostgresNIO

/// Members' outside identities and the sign-ins on their way to the provider, in PostgreSQL: a
/// sign-in started through one server completes through any other.
extension PostgresAccountStore {
    /// With a hash of the identity: sign-ins and links of one identity take turns across servers.
    static let identityLock: Int32 = 74_100_004

    public func savePendingSignIn(_ pending: PendingSignIn) async throws {
        // Those never taken back (the member left at the provider) are forgotten here.
        _ = try await database.rows("""
            WITH forgotten AS (DELETE FROM pending_sign_in WHERE expires <= \(now().storedValue))
            INSERT INTO pending_sign_in (state, browser, nonce, code_verifier, next, language, linking_account_id, expires)
            VALUES (\(pending.state), \(pending.browser), \(pending.nonce), \(pending.codeVerifier), \(pending.next),
                    \(pending.language), \(pending.linkingAccountID), \(pending.expires.storedValue))
            """)
    }

    public func takePendingSignIn(state: String, now: Date) async throws -> PendingSignIn? {
        // Of two servers taking the same state at once, the second finds the row gone.
        try await database.rows("""
            DELETE FROM pending_sign_in WHERE state = \(state)
            RETURNING state, browser, nonce, code_verifier, next, language, linking_account_id, expires
            """).first.map { row in
            let (state, browser, nonce, verifier, next, language, linking, expires) = try row.decode(
                (String, String, String, String, String, String, Int64?, Double).self)
            return PendingSignIn(state: state, browser: browser, nonce: nonce, codeVerifier: verifier, next: next,
                                 language: language, linkingAccountID: linking, expires: Date(storedValue: expires))
        }.flatMap { $0.expires > now ? $0 : nil }
    }

    public func account(identity: ExternalIdentity) async throws -> Account? {
        try await database.rows(Self.accountQuery(identity)).first.map(Self.account)
    }

    public func createMember(identity: ExternalIdentity, usernames: [String], name: String, at time: Date) async throws -> Account {
        try await database.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { connection in
            try await Self.lock(identity, on: connection)
            // A sign-in that raced this one holding the lock has committed by now, and READ COMMITTED sees it.
            if let account = try await connection.rows(Self.accountQuery(identity)).first.map(Self.account) {
                return account
            }
            for username in AccountRules.usernameTries(usernames) {
                // The unique username decides against a sign-up taking the same name at once.
                guard let row = try await connection.rows("""
                    INSERT INTO account (username, name, password_hash, role, created_at)
                    VALUES (\(username), \(name), NULL, 'member', \(time.storedValue))
                    ON CONFLICT (username) DO NOTHING RETURNING id
                    """).first
                else { continue }
                let id = try row.decode(Int64.self)
                try await Self.insert(identity, accountID: id, at: time, on: connection)
                return Account(id: id, username: username, name: name, role: .member, createdAt: time,
                               hasPassword: false, linkedIssuers: [identity.issuer])
            }
            throw AccountError.usernameTaken(usernames.first ?? "")
        }
    }

    public func link(_ identity: ExternalIdentity, to accountID: Int64, at time: Date) async throws {
        do {
            try await database.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { connection in
                try await Self.lock(identity, on: connection)
                if let owner = try await connection.rows("""
                    SELECT account_id FROM account_identity WHERE issuer = \(identity.issuer) AND subject = \(identity.subject)
                    """).first?.decode(Int64.self) {
                    guard owner == accountID else { throw IdentityError.linkedToAnother }
                    return
                }
                try await Self.insert(identity, accountID: accountID, at: time, on: connection)
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            // UNIQUE (account_id, issuer): the member has another identity at this provider.
            throw IdentityError.alreadyLinked
        }
    }

    public func unlink(issuer: String, accountID: Int64) async throws {
        try await database.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { connection in
            // Unlinks of one member take turns, so two at once cannot leave them no way in.
            let hasPassword = try await connection.rows("""
                SELECT password_hash IS NOT NULL FROM account WHERE id = \(accountID) FOR UPDATE
                """).first?.decode(Bool.self) ?? false
            let issuers = try await connection.rows("SELECT issuer FROM account_identity WHERE account_id = \(accountID)")
                .map { try $0.decode(String.self) }
            guard issuers.contains(issuer) else { throw IdentityError.notLinked }
            guard hasPassword || issuers.count > 1 else { throw IdentityError.onlyWayIn }
            try await connection.run("DELETE FROM account_identity WHERE account_id = \(accountID) AND issuer = \(issuer)")
        }
    }

    public func identities(accountID: Int64) async throws -> [ExternalIdentity] {
        try await database.rows("""
            SELECT issuer, subject FROM account_identity WHERE account_id = \(accountID) ORDER BY issuer
            """).map { row in
            let (issuer, subject) = try row.decode((String, String).self)
            return ExternalIdentity(issuer: issuer, subject: subject)
        }
    }

    private static func accountQuery(_ identity: ExternalIdentity) -> PostgresQuery {
        """
        SELECT \(unescaped: accountColumns) FROM account_identity linked JOIN account a ON a.id = linked.account_id
        WHERE linked.issuer = \(identity.issuer) AND linked.subject = \(identity.subject)
        """
    }

    private static func lock(_ identity: ExternalIdentity, on connection: PostgresConnection) async throws {
        try await connection.run("""
            SELECT pg_advisory_xact_lock(\(identityLock), hashtext(\(identity.issuer) || ' ' || \(identity.subject)))
            """)
    }

    private static func insert(_ identity: ExternalIdentity, accountID: Int64, at time: Date,
                               on connection: PostgresConnection) async throws {
        try await connection.run("""
            INSERT INTO account_identity (issuer, subject, account_id, linked_at)
            VALUES (\(identity.issuer), \(identity.subject), \(accountID), \(time.storedValue))
            """)
    }
}
