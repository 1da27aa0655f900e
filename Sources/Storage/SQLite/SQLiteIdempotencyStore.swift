import Foundation
internal import GRDB

/// Idempotency keys in SQLite. Claims go through the group-committing writer, so concurrent
/// claims of one key follow one another and exactly one inserts the row.
public struct SQLiteIdempotencyStore: IdempotencyStore {
    private let database: SQLiteDatabase

    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func claim(scope: String, key: String, request: String, at time: Date) async throws -> IdempotencyClaim {
        try await database.writer.write { db in
            try db.cachedStatement(sql: "DELETE FROM idempotentRequest WHERE created < ?")
                .execute(arguments: [time.storedValue - IdempotencyStoreLimits.lifetime])
            try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO idempotentRequest (scope, key, request, created) VALUES (?, ?, ?, ?)
                """).execute(arguments: [scope, key, request, time.storedValue])
            if db.changesCount == 1 { return .acquired }
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT request, status, contentType, body FROM idempotentRequest WHERE scope = ? AND key = ?"),
                arguments: [scope, key])!
            guard row["request"] == request else { return .mismatch }
            guard let status: Int = row["status"] else { return .pending }
            return .answered(StoredAnswer(status: status, contentType: row["contentType"], body: [UInt8](row["body"] as Data)))
        }
    }

    public func complete(scope: String, key: String, with answer: StoredAnswer) async throws {
        try await database.writer.write { db in
            try db.cachedStatement(sql: "UPDATE idempotentRequest SET status = ?, contentType = ?, body = ? WHERE scope = ? AND key = ?")
                .execute(arguments: [answer.status, answer.contentType, Data(answer.body), scope, key])
        }
    }

    public func release(scope: String, key: String) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM idempotentRequest WHERE scope = ? AND key = ? AND status IS NULL",
                           arguments: [scope, key])
        }
    }
}
