import Foundation
internal import GRDB
import Synchronization

/// A store's writes, decided together inside the writer's group commit: the writes of the store
/// waiting when a group reaches them are handled in one call, in one savepoint of that group, and
/// answered as soon as it commits, from the committing thread. (A `Batcher` in front of the
/// writer cost two more thread hops a batch, and cut its batch before the group did.)
final class SQLiteBatchedWrites<Write: Sendable, Commit: Sendable>: Sendable {
    private typealias Waiting = (write: PendingWrite<Write>, continuation: CheckedContinuation<Commit, any Error>)

    private let writer: SQLiteGroupCommitWriter
    private let line = WaitingLine<Waiting>(maximum: SQLiteGroupCommitWriter.maximumGroup)
    private let handle: @Sendable ([PendingWrite<Write>], Database) throws -> KeyedResults<Commit>

    /// `handle` decides and stores a batch in the group's transaction; an error it throws undoes
    /// the batch and is every write's answer.
    init(writer: SQLiteGroupCommitWriter,
         handle: @escaping @Sendable ([PendingWrite<Write>], Database) throws -> KeyedResults<Commit>) {
        self.writer = writer
        self.handle = handle
    }

    func submit(_ write: PendingWrite<Write>) async throws -> Commit {
        try await withCheckedThrowingContinuation { continuation in
            if line.add((write, continuation)) { writer.enqueue(nextBatch()) }
        }
    }

    /// The writer's job for the writes waiting when its group reaches it (or fails before).
    private func nextBatch() -> SQLiteGroupCommitWriter.Job {
        let taken = Mutex<[Waiting]?>(nil)
        let batch = { @Sendable in taken.withLock { taken in
            if let taken { return taken }
            let (batch, more) = self.line.take()
            // Taking leaves the line idle unless more than a batch waited: then the rest goes to
            // the next group, as does whatever comes meanwhile.
            if more { self.writer.enqueue(self.nextBatch()) }
            taken = batch
            return batch
        } }
        return SQLiteGroupCommitWriter.Job(
            attempt: { db in
                let batch = batch()
                let outcome = try SQLiteGroupCommitWriter.attempt(db) { try self.handle(batch.map(\.write), db) }
                return {
                    let results = outcome.map { $0.committed() }
                    for (index, waiting) in batch.enumerated() {
                        waiting.continuation.resume(with: results.flatMap { $0[index] })
                    }
                }
            },
            fail: { error in
                for waiting in batch() { waiting.continuation.resume(throwing: SQLiteGroupCommitWriter.reported(error)) }
            })
    }
}
