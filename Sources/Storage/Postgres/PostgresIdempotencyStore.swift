import Foundation
import PostgresNIO

/// Idempotency keys in PostgreSQL, shared by every server: the primary key decides which of
/// several concurrent claims, on any server, inserts the row.
public struct PostgresIdempotencyStore: IdempotencyStore {
    private let database: PostgresDatabase

    init(database: PostgresDatabase) {
        self.database = database
    }

    public func claim(scope: String, key: String, request: String, at time: Date) async throws -> IdempotencyClaim {
        try await database.transaction { connection in
            try await connection.run("""
                DELETE FROM idempotent_request WHERE created < \(time.storedValue - IdempotencyStoreLimits.lifetime)
                """)
            let inserted = try await connection.rows("""
                INSERT INTO idempotent_request (scope, key, request, created)
                VALUES (\(scope), \(key), \(request), \(time.storedValue))
                ON CONFLICT DO NOTHING RETURNING 1
                """)
            if !inserted.isEmpty { return .acquired }
            let (stored, status, contentType, body) = try await connection.row("""
                SELECT request, status, content_type, body FROM idempotent_request WHERE scope = \(scope) AND key = \(key)
                """).decode((String, Int?, String?, Data?).self)
            guard stored == request else { return .mismatch }
            guard let status else { return .pending }
            return .answered(StoredAnswer(status: status, contentType: contentType ?? "", body: [UInt8](body ?? Data())))
        }
    }

    public func complete(scope: String, key: String, with answer: StoredAnswer) async throws {
        _ = try await database.rows("""
            UPDATE idempotent_request SET status = \(answer.status), content_type = \(answer.contentType),
                body = \(Data(answer.body))
            WHERE scope = \(scope) AND key = \(key)
            """)
    }

    public func release(scope: String, key: String) async throws {
        _ = try await database.rows("""
            DELETE FROM idempotent_request WHERE scope = \(scope) AND key = \(key) AND status IS NULL
            """)
    }
}
