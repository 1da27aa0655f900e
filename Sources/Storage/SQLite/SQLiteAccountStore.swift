import Foundation
internal import GRDB
import Membership

/// Accounts and sessions in SQLite.
public struct SQLiteAccountStore: AccountStore {
    let database: SQLiteDatabase
    let now: @Sendable () -> Date

    public init(database: SQLiteDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    public func create(username: String, name: String, passwordHash: String, role: Role) async throws -> Account {
        let createdAt = now()
        return try await database.writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE username = ?", arguments: [username]) == nil
            else { throw AccountError.usernameTaken(username) }
            try db.execute(
                sql: "INSERT INTO account (username, name, password_hash, role, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [username, name, passwordHash, role.rawValue, createdAt.storedValue])
            return Account(id: db.lastInsertedRowID, username: username, name: name, role: role, createdAt: createdAt)
        }
    }

    public func credentials(username: String) async throws -> (account: Account, passwordHash: String?)? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.accountColumns) FROM account WHERE username = ?", arguments: [username])
                .map { (Self.account($0), $0["password_hash"]) }
        }
    }

    public func setPassword(accountID: Int64, hash: String) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE account SET password_hash = ? WHERE id = ?", arguments: [hash, accountID])
        }
    }

    public func rename(accountID: Int64, username: String) async throws {
        try await database.writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE username = ? AND id != ?",
                                    arguments: [username, accountID]) == nil
            else { throw AccountError.usernameTaken(username) }
            try db.execute(sql: "UPDATE account SET username = ? WHERE id = ?", arguments: [username, accountID])
        }
    }

    public func accounts() async throws -> [Account] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.accountColumns) FROM account ORDER BY id").map(Self.account)
        }
    }

    public func hasStaff() async throws -> Bool {
        try await database.pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE role = 'staff' LIMIT 1") ?? false
        }
    }

    public func createSession(token: String, accountID: Int64, expires: Date) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM session WHERE expires < ?", arguments: [Date().storedValue])
            try db.execute(sql: "INSERT INTO session (token, account_id, expires) VALUES (?, ?, ?)",
                           arguments: [token, accountID, expires.storedValue])
        }
    }

    public func account(sessionToken: String, now: Date) async throws -> Account? {
        try await database.pool.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT \(Self.accountColumns) FROM session JOIN account ON account.id = session.account_id WHERE token = ? AND expires > ?",
                arguments: [sessionToken, now.storedValue]
            ).map(Self.account)
        }
    }

    public func deleteSession(token: String) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM session WHERE token = ?", arguments: [token])
        }
    }

    public func claimSignInAttempt(username: String, at time: Date, since: Date, limit: Int) async throws -> SignInClaim {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM failed_sign_in WHERE time < ?", arguments: [since.storedValue])
            let attempts = try Date.fetchAll(
                db, sql: "SELECT time FROM failed_sign_in WHERE username = ? ORDER BY time", arguments: [username])
            guard attempts.count < limit else { return .refused(attempts: attempts) }
            try db.execute(sql: "INSERT INTO failed_sign_in (username, time) VALUES (?, ?)", arguments: [username, time.storedValue])
            return .claimed(id: db.lastInsertedRowID)
        }
    }

    public func withdrawSignInAttempt(_ id: Int64) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM failed_sign_in WHERE rowid = ?", arguments: [id])
        }
    }

    public func markEventShown(_ eventID: Int64, sessionToken: String) async throws -> Bool {
        try await database.writer.write { db in
            let shown = try Int64.fetchOne(db, sql: "SELECT shown_event_id FROM session WHERE token = ?", arguments: [sessionToken])
            guard shown != eventID else { return true }
            try db.execute(sql: "UPDATE session SET shown_event_id = ? WHERE token = ?", arguments: [eventID, sessionToken])
            return false
        }
    }

    public func dismissEvent(_ eventID: Int64, accountID: Int64, until: Date) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO event_dismissal (event_id, account_id, until) VALUES (?, ?, ?)",
                           arguments: [eventID, accountID, until.storedValue])
        }
    }

    public func isEventDismissed(_ eventID: Int64, accountID: Int64, at now: Date) async throws -> Bool {
        try await database.pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM event_dismissal WHERE event_id = ? AND account_id = ? AND until > ?",
                              arguments: [eventID, accountID, now.storedValue]) ?? false
        }
    }

    /// What `account(_:)` reads: the account's columns and its identities' issuers.
    static let accountColumns = "account.*, "
        + "(SELECT group_concat(issuer, char(10)) FROM account_identity WHERE account_id = account.id) AS linked_issuers"

    /// An account from a row of `accountColumns`.
    static func account(_ row: Row) -> Account {
        let issuers: String? = row["linked_issuers"]
        let passwordHash: String? = row["password_hash"]
        return Account(id: row["id"], username: row["username"], name: row["name"],
                       role: Role(rawValue: row["role"]) ?? .member, createdAt: row["created_at"],
                       hasPassword: passwordHash != nil,
                       linkedIssuers: issuers.map { $0.split(separator: "\n").map(String.init).sorted() } ?? [])
    }
}
