import Foundation
internal import GRDB
import Synchronization

/// Idempotency keys in SQLite. A keyed write's batch claims its keys and keeps their answers in
/// its own transaction, through the group-committing writer (`claim`, `keep`), so a key, its
/// answer and the write it guards cost one commit together.
public struct SQLiteIdempotencyStore: IdempotencyStore {
    private let database: SQLiteDatabase

    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func find(scope: String, key: String, request: String, at time: Date) async throws -> IdempotencyClaim? {
        try await database.pool.read { db in
            try Self.stored(KeyPlace(scope: scope, key: key), asked: request, since: IdempotencyStoreLimits.oldest(at: time), in: db)
        }
    }

    public func keep(_ answer: StoredAnswer, for write: IdempotentWrite) async throws -> IdempotencyClaim? {
        try await database.writer.write { db in
            if let taken = try Self.claim(write, in: db) { return taken }
            try Self.keep(answer, for: write, in: db)
            return nil
        }
    }
}

extension SQLiteIdempotencyStore {
    /// Claims the keys of a batch in its transaction, before anything is decided.
    static func claim<Write>(_ batch: [PendingWrite<Write>], in db: Database) throws -> ClaimedBatch<Write> {
        var taken: [KeyPlace: IdempotencyClaim] = [:]
        for write in ClaimedBatch.keys(of: batch) {
            taken[write.place] = try claim(write, in: db)
        }
        return ClaimedBatch(batch, taken: taken)
    }

    /// Keeps the answers of a batch's keyed writes in its transaction, and forgets keys past their
    /// lifetime when `sweep` says it is time; the results are the batch's, to be handed out once
    /// committed.
    static func keep<Commit>(
        _ finished: KeyedResults<Commit>, in db: Database, sweeping sweep: ExpiredKeySweep
    ) throws -> KeyedResults<Commit> {
        guard let first = finished.answers.first else { return finished }
        for kept in finished.answers {
            if let answer = kept.answer {
                try keep(answer, for: kept.write, in: db)
            } else {
                try db.run("DELETE FROM idempotentRequest WHERE scope = ? AND key = ?", kept.write.scope, kept.write.key)
            }
        }
        if sweep.isDue(at: first.write.time) {
            try db.run("DELETE FROM idempotentRequest WHERE created < ?", IdempotencyStoreLimits.oldest(at: first.write.time))
        }
        return finished
    }

    /// Takes `write`'s key (nil), or tells what holds it. A key past its lifetime is taken over.
    private static func claim(_ write: IdempotentWrite, in db: Database) throws -> IdempotencyClaim? {
        let oldest = IdempotencyStoreLimits.oldest(at: write.time)
        try db.run("""
            INSERT INTO idempotentRequest (scope, key, request, created) VALUES (?, ?, ?, ?)
            ON CONFLICT (scope, key) DO UPDATE
                SET request = excluded.request, created = excluded.created, status = NULL, contentType = NULL, body = NULL
                WHERE created < ?
            """, write.scope, write.key, write.request, write.time.storedValue, oldest)
        if db.changesCount == 1 { return nil }
        return try stored(write.place, asked: write.request, since: oldest, in: db) ?? .pending
    }

    private static func keep(_ answer: StoredAnswer, for write: IdempotentWrite, in db: Database) throws {
        try db.run("UPDATE idempotentRequest SET status = ?, contentType = ?, body = ? WHERE scope = ? AND key = ?",
                   answer.status, answer.contentType, answer.body, write.scope, write.key)
    }

    private static func stored(_ place: KeyPlace, asked: String, since oldest: Double, in db: Database) throws -> IdempotencyClaim? {
        try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT request, status, contentType, body FROM idempotentRequest WHERE scope = ? AND key = ? AND created >= ?
                """),
            arguments: [place.scope, place.key, oldest]
        ).map { row in
            IdempotencyClaim(asked: asked, stored: row["request"], status: row["status"], contentType: row["contentType"],
                             body: (row["body"] as Data?).map { [UInt8]($0) })
        }
    }
}

/// When keys past their lifetime are next deleted. Nothing reads an expired key (each read and
/// claim looks at `created`), so deleting them only gives the room back, and a scan of the table
/// every few minutes does that without an index every key would enter. A shop's table holds a
/// day of keys; a sweep undone with its group is simply made by a later one.
final class ExpiredKeySweep: Sendable {
    /// How often a keyed batch scans for expired keys.
    static let interval: TimeInterval = 10 * 60
    private let next = Mutex<Date>(.distantPast)

    /// Whether a batch at `time` sweeps; if so, the next sweep is an interval later.
    func isDue(at time: Date) -> Bool {
        next.withLock { next in
            guard time >= next else { return false }
            next = time + Self.interval
            return true
        }
    }
}
