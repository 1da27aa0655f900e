import Foundation
import JuiceBar
import VendingMachine

/// A write waiting for its batch: what was asked, by whom, when, and the request's
/// `Idempotency-Key` when it carries one.
struct PendingWrite<Write: Sendable>: Sendable {
    let write: Write
    let actor: String
    let time: Date
    var key: IdempotentWrite? = nil
}

/// What a batch is decided against: the domain's book, which holds every rule of its writes and
/// turns each into a plan to store, or refuses it.
protocol DecidingBook {
    associatedtype Write: Sendable
    associatedtype Plan
    mutating func decide(_ write: Write, actor: String, at time: Date) throws -> Plan
}

extension JuiceBarBook: DecidingBook {}
extension VendingBook: DecidingBook {}

/// A batch of writes decided, each in turn against one reading of the book: the part of a batch
/// that is the same on every engine. The engine stores `plans` in the transaction it read the
/// book in, then answers every write. A refused write never reaches the engine, so it needs no
/// rollback of its own.
struct DecidedBatch<Book: DecidingBook> {
    private let results: [Result<Book.Plan, any Error>]
    /// The book as the whole batch leaves it.
    let book: Book

    init<Batch: Sequence<PendingWrite<Book.Write>>>(_ batch: Batch, on book: Book) {
        var book = book
        results = batch.map { pending in
            Result { try book.decide(pending.write, actor: pending.actor, at: pending.time) }
        }
        self.book = book
    }

    /// What to store: the plans of the writes that were not refused, in order.
    var plans: [Book.Plan] { results.compactMap { try? $0.get() } }

    /// Each write's answer, in order: its refusal, or the next of `stored`, one per plan stored.
    func answers<Answer>(_ stored: [Answer]) -> [Result<Answer, any Error>] {
        var stored = stored.makeIterator()
        return results.map { result in result.map { _ in stored.next()! } }
    }
}
