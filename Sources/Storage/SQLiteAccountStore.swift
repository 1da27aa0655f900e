import Foundation
internal import GRDB
import Membership

/// Accounts and sessions in SQLite.
public struct SQLiteAccountStore: AccountStore {
    private let database: SQLiteDatabase
    private let now: @Sendable () -> Date

    public init(database: SQLiteDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
    }

    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("accounts.v1") { db in
            try db.execute(sql: """
                CREATE TABLE account (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    username TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    passwordHash TEXT NOT NULL,
                    role TEXT NOT NULL CHECK (role IN ('member', 'staff')),
                    createdAt DATETIME NOT NULL
                );
                CREATE TABLE session (
                    token TEXT PRIMARY KEY,
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    expires DATETIME NOT NULL
                );
                """)
        }
    }

    public func create(username: String, name: String, passwordHash: String, role: Role) async throws -> Account {
        let createdAt = now()
        return try await database.pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE username = ?", arguments: [username]) == nil
            else { throw AccountError.usernameTaken(username) }
            try db.execute(
                sql: "INSERT INTO account (username, name, passwordHash, role, createdAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [username, name, passwordHash, role.rawValue, createdAt])
            return Account(id: db.lastInsertedRowID, username: username, name: name, role: role, createdAt: createdAt)
        }
    }

    public func credentials(username: String) async throws -> (account: Account, passwordHash: String)? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE username = ?", arguments: [username])
                .map { (Self.account($0), $0["passwordHash"]) }
        }
    }

    public func accounts() async throws -> [Account] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM account ORDER BY id").map(Self.account)
        }
    }

    public func hasStaff() async throws -> Bool {
        try await database.pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE role = 'staff' LIMIT 1") ?? false
        }
    }

    public func createSession(token: String, accountID: Int64, expires: Date) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "DELETE FROM session WHERE expires < ?", arguments: [Date()])
            try db.execute(sql: "INSERT INTO session (token, accountId, expires) VALUES (?, ?, ?)",
                           arguments: [token, accountID, expires])
        }
    }

    public func account(sessionToken: String, now: Date) async throws -> Account? {
        try await database.pool.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT account.* FROM session JOIN account ON account.id = session.accountId WHERE token = ? AND expires > ?",
                arguments: [sessionToken, now]
            ).map(Self.account)
        }
    }

    public func deleteSession(token: String) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "DELETE FROM session WHERE token = ?", arguments: [token])
        }
    }

    private static func account(_ row: Row) -> Account {
        Account(id: row["id"], username: row["username"], name: row["name"],
                role: Role(rawValue: row["role"]) ?? .member, createdAt: row["createdAt"])
    }
}
