import Foundation
import NIOCore
import PostgresNIO

/// Idempotency keys in PostgreSQL, shared by every server. A keyed write's batch claims its keys
/// in its own transaction (`claim`), so the primary key decides which of several requests with
/// one key, on any server, acts: a duplicate's insert waits for the holder's transaction and, once
/// it committed, finds its answer. The answers are kept in the same transaction (`keep`).
public struct PostgresIdempotencyStore: IdempotencyStore {
    private let database: PostgresDatabase

    init(database: PostgresDatabase) {
        self.database = database
    }

    public func find(scope: String, key: String, request: String, at time: Date) async throws -> IdempotencyClaim? {
        let place = KeyPlace(scope: scope, key: key)
        return try await Self.stored([place], asked: [place: request], since: IdempotencyStoreLimits.oldest(at: time),
                                     rows: database.rows)[place]
    }

    public func keep(_ answer: StoredAnswer, for write: IdempotentWrite) async throws -> IdempotencyClaim? {
        try await database.transaction { connection in
            if let taken = try await Self.claim([write], in: connection)[write.place] { return taken }
            try await Self.keep([KeyedResults<Int>.Kept(write: write, answer: answer)], in: connection)
            return nil
        }
    }
}

extension PostgresIdempotencyStore {
    /// Claims the keys of a batch in its transaction, before anything is decided, in one statement.
    static func claim<Write>(_ batch: [PendingWrite<Write>], in connection: PostgresConnection) async throws -> ClaimedBatch<Write> {
        let keys = ClaimedBatch.keys(of: batch)
        guard !keys.isEmpty else { return ClaimedBatch(batch, taken: [:]) }
        return ClaimedBatch(batch, taken: try await claim(keys, in: connection))
    }

    /// Keeps the answers of a batch's keyed writes in its transaction, and forgets keys past their
    /// lifetime; the results are the batch's, to be handed out once committed.
    static func keep<Commit>(_ finished: KeyedResults<Commit>, in connection: PostgresConnection) async throws -> KeyedResults<Commit> {
        if !finished.answers.isEmpty { try await keep(finished.answers, in: connection) }
        return finished
    }

    /// Takes each key (sorted, see `ClaimedBatch.keys`) and tells what holds each one it could not
    /// take. A key past its lifetime is taken over.
    private static func claim(_ keys: [IdempotentWrite], in connection: PostgresConnection) async throws -> [KeyPlace: IdempotencyClaim] {
        let oldest = IdempotencyStoreLimits.oldest(at: keys[0].time)
        var claimed = Set<KeyPlace>()
        for row in try await connection.rows("""
            INSERT INTO idempotent_request (scope, key, request, created)
            SELECT * FROM unnest(\(keys.map(\.scope))::text[], \(keys.map(\.key))::text[], \(keys.map(\.request))::text[],
                                 \(keys.map(\.time.storedValue))::float8[])
            ON CONFLICT (scope, key) DO UPDATE
                SET request = excluded.request, created = excluded.created, status = NULL, content_type = NULL, body = NULL
                WHERE idempotent_request.created < \(oldest)
            RETURNING scope, key
            """) {
            let (scope, key) = try row.decode((String, String).self)
            claimed.insert(KeyPlace(scope: scope, key: key))
        }
        let taken = keys.filter { !claimed.contains($0.place) }
        guard !taken.isEmpty else { return [:] }
        var found = try await stored(taken.map(\.place), asked: Dictionary(uniqueKeysWithValues: taken.map { ($0.place, $0.request) }),
                                     since: oldest, rows: connection.rows)
        for write in taken where found[write.place] == nil { found[write.place] = .pending }
        return found
    }

    /// Stores each answer with its key (a nil answer lets the key go), and forgets keys past their
    /// lifetime, in one statement. An old key another transaction is taking over right now is
    /// skipped, not waited for: that transaction may be waiting for the part's lock this one holds.
    private static func keep(_ answers: [KeyedResults<some Sendable>.Kept], in connection: PostgresConnection) async throws {
        let kept = answers.filter { $0.answer != nil }
        let dropped = answers.filter { $0.answer == nil }.map(\.write)
        try await connection.run("""
            WITH expired AS (
                DELETE FROM idempotent_request WHERE ctid IN (
                    SELECT ctid FROM idempotent_request
                    WHERE created < \(IdempotencyStoreLimits.oldest(at: answers[0].write.time)) FOR UPDATE SKIP LOCKED)
            ), dropped AS (
                DELETE FROM idempotent_request r
                USING unnest(\(dropped.map(\.scope))::text[], \(dropped.map(\.key))::text[]) AS d(scope, key)
                WHERE r.scope = d.scope AND r.key = d.key
            )
            UPDATE idempotent_request r SET status = a.status, content_type = a.content_type, body = a.body
            FROM unnest(\(kept.map(\.write.scope))::text[], \(kept.map(\.write.key))::text[],
                        \(kept.map { $0.answer!.status })::int4[], \(kept.map { $0.answer!.contentType })::text[],
                        \(kept.map { ByteBuffer(bytes: $0.answer!.body) })::bytea[]) AS a(scope, key, status, content_type, body)
            WHERE r.scope = a.scope AND r.key = a.key
            """)
    }

    /// What is kept for each of `places`, asked `asked`, since `oldest`.
    private static func stored(
        _ places: [KeyPlace], asked: [KeyPlace: String], since oldest: Double,
        rows: (PostgresQuery) async throws -> [PostgresRow]
    ) async throws -> [KeyPlace: IdempotencyClaim] {
        var found: [KeyPlace: IdempotencyClaim] = [:]
        for row in try await rows("""
            SELECT r.scope, r.key, r.request, r.status, r.content_type, r.body
            FROM idempotent_request r JOIN unnest(\(places.map(\.scope))::text[], \(places.map(\.key))::text[]) AS p(scope, key)
                ON r.scope = p.scope AND r.key = p.key
            WHERE r.created >= \(oldest)
            """) {
            let (scope, key, request, status, contentType, body) = try row.decode((String, String, String, Int?, String?, ByteBuffer?).self)
            let place = KeyPlace(scope: scope, key: key)
            found[place] = IdempotencyClaim(asked: asked[place] ?? "", stored: request, status: status, contentType: contentType,
                                            body: body.map { Array($0.readableBytesView) })
        }
        return found
    }
}
