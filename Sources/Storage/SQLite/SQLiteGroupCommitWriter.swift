import Dispatch
import Foundation
internal import GRDB

/// The one writer of a SQLite file. Every write waiting at a moment goes into one transaction,
/// each in a savepoint of its own, so a write that fails (a shortage, a refused purchase) rolls
/// back alone and its neighbours still commit. Everyone is answered only after the commit, which
/// with `synchronous=FULL` means after the data is on disk: one fsync pays for the whole group.
final class SQLiteGroupCommitWriter: Sendable {
    /// A write waiting for its turn.
    struct Job: Sendable {
        /// Runs the write in its savepoint and returns how to answer once the commit is known;
        /// throws only when the savepoint could not be undone, and the group must roll back.
        let attempt: @Sendable (Database) throws -> Answer
        /// Answers with an error: the transaction as a whole failed.
        let fail: @Sendable (any Error) -> Void
    }

    /// Answers a write once its group committed.
    typealias Answer = @Sendable () -> Void

    private let pool: DatabasePool
    private let file: SQLiteDatabaseFile
    private let line = WaitingLine<Job>(maximum: SQLiteGroupCommitWriter.maximumGroup)
    /// Where groups are committed: a thread of its own, so waiting for the disk never holds up
    /// a thread of Swift's small cooperative pool, and no async hop is paid per group.
    private let committer = DispatchQueue(label: "juicemaker.group-commit")
    /// The most writes one transaction takes, so that one group never holds the lock for long.
    static let maximumGroup = 512

    init(pool: DatabasePool, file: SQLiteDatabaseFile) {
        self.pool = pool
        self.file = file
    }

    /// Runs `body` as part of the next group commit and returns its result once committed.
    /// A throwing `body` changes nothing and its error is returned once the group is done.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            enqueue(Job(
                attempt: { db in
                    let result = try Self.attempt(db) { try body(db) }
                    return { continuation.resume(with: result) }
                },
                fail: { continuation.resume(throwing: Self.reported($0)) }))
        }
    }

    /// Adds `job` to the next group, and starts committing when no group is being committed.
    func enqueue(_ job: Job) {
        if line.add(job) {
            committer.async { self.drain() }
        }
    }

    /// Runs `body` in its savepoint: its result, kept, or its error, the savepoint undone. Throws
    /// only when the savepoint could not be undone, and the whole group must roll back.
    static func attempt<T>(_ db: Database, _ body: () throws -> T) throws -> Result<T, any Error> {
        do {
            return .success(try inSavepoint(db, body))
        } catch let failure as SavepointFailure {
            throw failure.groupError
        } catch {
            return .failure(reported(error))
        }
    }

    /// Runs `body` in a savepoint of the group's transaction: kept when it returns, undone when
    /// it throws. The statements are prepared once per connection, not once per write as
    /// GRDB's `inSavepoint` does, which a stream of writes would feel.
    /// The write's own error comes out; a savepoint that cannot be undone comes out as a
    /// `SavepointFailure`, since then the whole group's transaction must roll back.
    private static func inSavepoint<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "SAVEPOINT write").execute()
        do {
            let result = try body()
            try db.cachedStatement(sql: "RELEASE SAVEPOINT write").execute()
            return result
        } catch {
            do {
                try db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT write").execute()
                try db.cachedStatement(sql: "RELEASE SAVEPOINT write").execute()
            } catch let rollbackError {
                throw SavepointFailure(writeError: error, rollbackError: rollbackError)
            }
            throw error
        }
    }

    private struct SavepointFailure: Error {
        let writeError: any Error
        let rollbackError: any Error

        /// What the whole group is told. A full disk makes SQLite abort the transaction, and so
        /// the rollback to the savepoint fails: the full disk is the reason worth telling.
        var groupError: any Error {
            let reported = SQLiteGroupCommitWriter.reported(writeError)
            return reported is StorageError ? reported : rollbackError
        }
    }

    /// A full disk is a storage error the API can name (503 `storage_full`); others pass as they are.
    static func reported(_ error: any Error) -> any Error {
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_FULL { return StorageError.full }
        return error
    }

    /// Runs `body` in an immediate transaction: committed when it returns, rolled back when it
    /// (or the commit) throws. Its statements are prepared once per connection, as the savepoints'
    /// are; GRDB's `inTransaction` prepares them again for every group.
    private static func inTransaction<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
        do {
            let result = try body()
            try db.cachedStatement(sql: "COMMIT").execute()
            return result
        } catch {
            if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK").execute() }
            throw error
        }
    }

    /// Commits groups until no write is waiting.
    private func drain() {
        while let group = line.next() {
            do {
                try file.verifyInPlace()
                let answers = try pool.writeWithoutTransaction { db in
                    try Self.inTransaction(db) { try group.map { try $0.attempt(db) } }
                }
                for answer in answers { answer() }
            } catch {
                for job in group { job.fail(error) }
            }
        }
    }
}
