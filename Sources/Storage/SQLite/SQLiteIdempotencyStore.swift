import Foundation
internal import GRDB
internal import GRDBSQLite
import Synchronization

/// Idempotency keys in SQLite. A keyed write's batch claims its keys and keeps their answers in
/// its own transaction, through the group-committing writer (`KeysInTransaction`), so a key, its
/// answer and the write it guards cost one commit together.
public struct SQLiteIdempotencyStore: IdempotencyStore {
    private let database: SQLiteDatabase

    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func find(scope: String, key: String, request: String, at time: Date) async throws -> IdempotencyClaim? {
        try await database.pool.read { db in
            var keys = database.keys.inTransaction()
            let claim = try keys.stored(KeyPlace(scope: scope, key: key), asked: request,
                                        since: IdempotencyStoreLimits.oldest(at: time), in: db)
            // A read sees committed rows only: what it read past the index is learned at once.
            keys.learned()
            return claim
        }
    }

    public func keep(_ answer: StoredAnswer, for write: IdempotentWrite) async throws -> IdempotencyClaim? {
        let (taken, keys) = try await database.writer.write { db -> (IdempotencyClaim?, KeysInTransaction) in
            var keys = database.keys.inTransaction()
            if let taken = try keys.claim(write, in: db) { return (taken, keys) }
            try keys.keep(answer, for: write, in: db)
            return (nil, keys)
        }
        keys.learned()
        return taken
    }
}

/// The kept answers of one file, as this process knows them. The table keeps each answer under an
/// id of its own, in the order they were kept, and has no other index: a key is found through
/// this one, in memory, which holds for each key (by its hash) its newest row's id. A new key is
/// then one row added at the table's end, where an index of keys put each on a leaf of its own:
/// most of the pages a keyed batch wrote to the WAL (`scripts/wal-pages`), and two statements a key.
///
/// The index knows every row committed up to `known` (rows deleted since aside); a transaction
/// reads the rows past it itself (another process's, or its own batches'), and they are learned
/// once it committed. Ids only grow (a new row takes the id after the largest, and the sweep never
/// deletes the newest row), so a row added later is never behind `known`.
final class KeptKeys: Sendable {
    private let index = Mutex(Index())
    /// When this process's keyed batches next forget the keys past their lifetime.
    let sweep = ExpiredKeySweep()

    private struct Index {
        var newest: [Int: Newest] = [:]
        var known: Int64 = 0
    }

    /// For the keys with one hash: the newest row's id, and the latest time any of them was
    /// created (when that is past the lifetime, every row of the hash is).
    struct Newest: Sendable {
        var id: Int64
        var created: Double
    }

    /// How many hashes the index holds.
    var count: Int { index.withLock { $0.newest.count } }

    /// A view for one transaction.
    func inTransaction() -> KeysInTransaction { KeysInTransaction(kept: self) }

    fileprivate var known: Int64 { index.withLock { $0.known } }

    fileprivate func newest(_ place: KeyPlace) -> Int64? { index.withLock { $0.newest[place.hashValue]?.id } }

    /// Learns `rows`, every row of a committed transaction's view from `known` to `upTo`, and
    /// forgets the hashes whose every row was created before `forgotten` (swept in it).
    fileprivate func learn(_ rows: [KeyPlace: Newest], upTo: Int64, forgetting forgotten: Double?) {
        index.withLock { index in
            for (place, row) in rows {
                let hash = place.hashValue
                let before = index.newest[hash]
                index.newest[hash] = Newest(id: max(row.id, before?.id ?? 0), created: max(row.created, before?.created ?? row.created))
            }
            index.known = max(index.known, upTo)
            if let forgotten { index.newest = index.newest.filter { $0.value.created >= forgotten } }
        }
    }
}

/// The kept keys as one transaction sees them: the index, and the rows past what the index knew,
/// read on first need, with the rows the transaction adds.
struct KeysInTransaction: Sendable {
    private let kept: KeptKeys
    private var recent: [KeyPlace: KeptKeys.Newest]?
    private var upTo: Int64 = 0
    private var swept: Double?

    fileprivate init(kept: KeptKeys) {
        self.kept = kept
    }

    /// Claims the keys of a batch, before anything is decided.
    mutating func claim<Write>(_ batch: [PendingWrite<Write>], in db: Database) throws -> ClaimedBatch<Write> {
        var taken: [KeyPlace: IdempotencyClaim] = [:]
        for write in ClaimedBatch.keys(of: batch) {
            taken[write.place] = try claim(write, in: db)
        }
        return ClaimedBatch(batch, taken: taken)
    }

    /// Takes `write`'s key (nil), or tells what holds it. A key past its lifetime is taken over.
    mutating func claim(_ write: IdempotentWrite, in db: Database) throws -> IdempotencyClaim? {
        try stored(write.place, asked: write.request, since: IdempotencyStoreLimits.oldest(at: write.time), in: db)
    }

    /// Keeps the answers of a batch's keyed writes (a write whose answer is nil lets its key go:
    /// nothing is kept), and forgets keys past their lifetime when the sweep says it is time; the
    /// results are the batch's, to be handed out once committed, when the index learns the rows.
    mutating func keep<Commit>(_ finished: KeyedResults<Commit>, in db: Database) throws -> KeyedResults<Commit> {
        guard let first = finished.answers.first else { return finished }
        try keep(finished.answers.compactMap { kept in kept.answer.map { ($0, kept.write) } }, in: db)
        if kept.sweep.isDue(at: first.write.time) {
            let oldest = IdempotencyStoreLimits.oldest(at: first.write.time)
            try db.run("""
                DELETE FROM idempotent_request WHERE created < ? AND id < (SELECT MAX(id) FROM idempotent_request)
                """, oldest)
            swept = oldest
        }
        let learned = self
        return finished.afterCommit { learned.learned() }
    }

    mutating func keep(_ answer: StoredAnswer, for write: IdempotentWrite, in db: Database) throws {
        try keep([(answer, write)], in: db)
    }

    /// Adds a row for each answer, with one insert for the lot, under ids that follow the table's last.
    private mutating func keep(_ answers: [(answer: StoredAnswer, write: IdempotentWrite)], in db: Database) throws {
        guard !answers.isEmpty else { return }
        try readRecent(db)
        let first = try db.lastID(of: "idempotent_request") + 1
        let rows = Array(zip(first..., answers))
        try db.insert(rows, Self.insert) { row, parameters in
            let (id, (answer, write)) = row
            parameters.bind(id, write.scope, write.key, write.request, write.time.storedValue, answer.status,
                            answer.contentType, answer.body)
        }
        for (id, kept) in rows {
            recent?[kept.write.place] = KeptKeys.Newest(id: id, created: kept.write.time.storedValue)
            upTo = max(upTo, id)
        }
    }

    static let insert = MultiRowInsert(into: "idempotent_request", columns: [
        "id", "scope", "key", "request", "created", "status", "content_type", "body"])

    /// Tells the index what this transaction read and wrote, once it committed.
    func learned() {
        guard let recent, !recent.isEmpty || swept != nil else { return }
        kept.learn(recent, upTo: upTo, forgetting: swept)
    }

    /// What is kept for `place` within the lifetime, for a request that asks `asked`.
    mutating func stored(_ place: KeyPlace, asked: String, since oldest: Double, in db: Database) throws -> IdempotencyClaim? {
        try readRecent(db)
        guard let id = recent?[place]?.id ?? kept.newest(place) else { return nil }
        let row = try Row.fetchOne(db.cachedStatement(sql: Self.rowOfID), arguments: [id])
        if let row, row["scope"] as String == place.scope, row["key"] as String == place.key {
            return row["created"] as Double >= oldest ? Self.claim(row, asked: asked) : nil
        }
        // The row is gone, or is another key's of the same hash: the table is searched (rare).
        return try Row.fetchOne(db.cachedStatement(sql: Self.newestRowOfKey), arguments: [place.scope, place.key, oldest])
            .map { Self.claim($0, asked: asked) }
    }

    static let rowOfID = """
        SELECT scope, key, request, created, status, content_type, body FROM idempotent_request WHERE id = ?
        """
    static let newestRowOfKey = """
        SELECT request, status, content_type, body FROM idempotent_request
        WHERE scope = ? AND key = ? AND created >= ? ORDER BY id DESC LIMIT 1
        """
    static let rowsPast = "SELECT id, scope, key, created FROM idempotent_request WHERE id > ? ORDER BY id"

    /// The rows past what the index knew when this transaction first needed them.
    private mutating func readRecent(_ db: Database) throws {
        guard recent == nil else { return }
        let known = kept.known
        upTo = known
        var rows: [KeyPlace: KeptKeys.Newest] = [:]
        try db.read(Self.rowsPast, known) { row in
            let id = sqlite3_column_int64(row, 0)
            let place = KeyPlace(scope: String(cString: sqlite3_column_text(row, 1)),
                                 key: String(cString: sqlite3_column_text(row, 2)))
            rows[place] = KeptKeys.Newest(id: id, created: sqlite3_column_double(row, 3))
            upTo = id
        }
        recent = rows
    }

    private static func claim(_ row: Row, asked: String) -> IdempotencyClaim {
        IdempotencyClaim(asked: asked, stored: row["request"], status: row["status"], contentType: row["content_type"],
                         body: (row["body"] as Data?).map { [UInt8]($0) })
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
