import Foundation
internal import GRDB
import Membership

/// Members' outside identities and the sign-ins on their way to the provider, in SQLite.
extension SQLiteAccountStore {
    public func savePendingSignIn(_ pending: PendingSignIn) async throws {
        let now = now()
        try await database.writer.write { db in
            // Those never taken back (the member left at the provider) are forgotten here.
            try db.execute(sql: "DELETE FROM pending_sign_in WHERE expires <= ?", arguments: [now.storedValue])
            try db.execute(
                sql: """
                    INSERT INTO pending_sign_in (state, browser, nonce, code_verifier, next, language, linking_account_id, expires)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [pending.state, pending.browser, pending.nonce, pending.codeVerifier, pending.next,
                            pending.language, pending.linkingAccountID, pending.expires.storedValue])
        }
    }

    public func takePendingSignIn(state: String, now: Date) async throws -> PendingSignIn? {
        try await database.writer.write { db in
            try Row.fetchOne(db, sql: "DELETE FROM pending_sign_in WHERE state = ? RETURNING *", arguments: [state])
                .map(Self.pendingSignIn)
                .flatMap { $0.expires > now ? $0 : nil }
        }
    }

    public func account(identity: ExternalIdentity) async throws -> Account? {
        try await database.pool.read { db in try Self.account(identity: identity, in: db) }
    }

    public func createMember(identity: ExternalIdentity, usernames: [String], name: String, at time: Date) async throws -> Account {
        try await database.writer.write { db in
            // Writes to the file take turns, so a sign-in that raced this one has committed by now.
            if let account = try Self.account(identity: identity, in: db) { return account }
            let username = try AccountRules.usernameTries(usernames).first { username in
                try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE username = ?", arguments: [username]) == nil
            }
            guard let username else { throw AccountError.usernameTaken(usernames.first ?? "") }
            try db.execute(
                sql: "INSERT INTO account (username, name, password_hash, role, created_at) VALUES (?, ?, NULL, 'member', ?)",
                arguments: [username, name, time.storedValue])
            let id = db.lastInsertedRowID
            try Self.insert(identity, accountID: id, at: time, in: db)
            return Account(id: id, username: username, name: name, role: .member, createdAt: time,
                           hasPassword: false, linkedIssuers: [identity.issuer])
        }
    }

    public func link(_ identity: ExternalIdentity, to accountID: Int64, at time: Date) async throws {
        try await database.writer.write { db in
            if let owner = try Int64.fetchOne(
                db, sql: "SELECT account_id FROM account_identity WHERE issuer = ? AND subject = ?",
                arguments: [identity.issuer, identity.subject]) {
                guard owner == accountID else { throw IdentityError.linkedToAnother }
                return
            }
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM account_identity WHERE account_id = ? AND issuer = ?",
                                    arguments: [accountID, identity.issuer]) == nil
            else { throw IdentityError.alreadyLinked }
            try Self.insert(identity, accountID: accountID, at: time, in: db)
        }
    }

    public func unlink(issuer: String, accountID: Int64) async throws {
        try await database.writer.write { db in
            let issuers = try String.fetchAll(db, sql: "SELECT issuer FROM account_identity WHERE account_id = ?",
                                              arguments: [accountID])
            guard issuers.contains(issuer) else { throw IdentityError.notLinked }
            let hasPassword = try Bool.fetchOne(db, sql: "SELECT password_hash IS NOT NULL FROM account WHERE id = ?",
                                                arguments: [accountID]) ?? false
            guard hasPassword || issuers.count > 1 else { throw IdentityError.onlyWayIn }
            try db.execute(sql: "DELETE FROM account_identity WHERE account_id = ? AND issuer = ?", arguments: [accountID, issuer])
        }
    }

    public func identities(accountID: Int64) async throws -> [ExternalIdentity] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT issuer, subject FROM account_identity WHERE account_id = ? ORDER BY issuer",
                             arguments: [accountID])
                .map { ExternalIdentity(issuer: $0["issuer"], subject: $0["subject"]) }
        }
    }

    private static func account(identity: ExternalIdentity, in db: Database) throws -> Account? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT \(accountColumns) FROM account_identity linked JOIN account ON account.id = linked.account_id
                WHERE linked.issuer = ? AND linked.subject = ?
                """,
            arguments: [identity.issuer, identity.subject]
        ).map(account)
    }

    private static func insert(_ identity: ExternalIdentity, accountID: Int64, at time: Date, in db: Database) throws {
        try db.execute(sql: "INSERT INTO account_identity (issuer, subject, account_id, linked_at) VALUES (?, ?, ?, ?)",
                       arguments: [identity.issuer, identity.subject, accountID, time.storedValue])
    }

    private static func pendingSignIn(_ row: Row) -> PendingSignIn {
        PendingSignIn(state: row["state"], browser: row["browser"], nonce: row["nonce"], codeVerifier: row["code_verifier"],
                      next: row["next"], language: row["language"], linkingAccountID: row["linking_account_id"],
                      expires: row["expires"])
    }
}
