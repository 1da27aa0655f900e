import Foundation

/// A batch's writes once their keys were claimed in the batch's transaction, before anything was
/// decided: the writes that act, and each write whose key an earlier request holds, which does
/// nothing. The same on every engine; the engine claims `keys` and keeps the answers.
struct ClaimedBatch<Write: Sendable> {
    /// The writes that act, in order.
    private(set) var acting: [PendingWrite<Write>]
    /// Per write of the batch, in order: nil when it acts, else what its key met.
    private var lost: [IdempotencyClaim?]

    /// The keys `batch` carries, each once, in one order for every transaction (so two batches
    /// claiming the same keys on PostgreSQL take them in the same order and cannot deadlock).
    static func keys(of batch: [PendingWrite<Write>]) -> [IdempotentWrite] {
        var seen = Set<KeyPlace>()
        return batch.compactMap(\.key).filter { seen.insert($0.place).inserted }.sorted { $0.place < $1.place }
    }

    /// `taken`: what each key that could not be claimed met. A second write with a key in the same
    /// batch waits for the first (`pending`).
    init(_ batch: [PendingWrite<Write>], taken: [KeyPlace: IdempotencyClaim]) {
        var claimed = Set<KeyPlace>()
        lost = batch.map { pending in
            guard let place = pending.key?.place else { return nil }
            if let claim = taken[place] { return claim }
            return claimed.insert(place).inserted ? nil : .pending
        }
        acting = zip(batch, lost).filter { $0.1 == nil }.map(\.0)
    }

    /// Adds writes that carry no key, and so act, at the batch's end.
    mutating func add(unkeyed writes: [PendingWrite<Write>]) {
        precondition(writes.allSatisfy { $0.key == nil }, "a key is claimed before the batch is decided")
        acting += writes
        lost += writes.map { _ in nil }
    }

    /// Every write's result in the batch's order, given the acting writes' results, with the
    /// answer each acting keyed write keeps, rendered now, before the commit.
    func finish<Commit: Sendable>(_ acted: [Result<Commit, any Error>]) -> KeyedResults<Commit> {
        precondition(acted.count == acting.count, "a result for every write that acted")
        var writes = zip(acting, acted).makeIterator()
        var answers: [KeyedResults<Commit>.Kept] = []
        let results = lost.map { claim -> Result<Commit, any Error> in
            if let claim { return .failure(KeyAlreadyUsed(claim: claim)) }
            let (pending, result) = writes.next()!
            if let key = pending.key { answers.append(.init(write: key, answer: key.answer(result))) }
            return result
        }
        return KeyedResults(results: results, answers: answers)
    }
}

/// A keyed batch's results, and the answers its acting keyed writes keep (nil: keep nothing, the
/// key is let go) in the same transaction.
struct KeyedResults<Commit: Sendable>: Sendable {
    struct Kept: Sendable {
        let write: IdempotentWrite
        let answer: StoredAnswer?
    }

    let results: [Result<Commit, any Error>]
    let answers: [Kept]
    /// What the engine does once the transaction committed, before anyone is answered.
    private var whenCommitted: (@Sendable () -> Void)?

    init(results: [Result<Commit, any Error>], answers: [Kept]) {
        self.results = results
        self.answers = answers
    }

    /// The same results, with `action` to run once the transaction committed.
    func afterCommit(_ action: @escaping @Sendable () -> Void) -> KeyedResults {
        var results = self
        results.whenCommitted = action
        return results
    }

    /// Whether the transaction has answers to commit, even when every write was refused.
    var keepsAnswers: Bool { answers.contains { $0.answer != nil } }

    /// Each write's result, once the transaction committed: each request now has its kept answer.
    func committed() -> [Result<Commit, any Error>] {
        whenCommitted?()
        for kept in answers { kept.write.committed(kept.answer) }
        return results
    }
}
