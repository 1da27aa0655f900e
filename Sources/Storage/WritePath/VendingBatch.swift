import Foundation
import VendingMachine

/// A vending write once committed: its plan, the id of the sale it made (if any), and the
/// machine as its batch left it.
public struct VendingCommit: Sendable {
    public var plan: VendingPlan
    public var saleID: Int64?
    public var state: VendingState
}

extension Array where Element == PendingWrite<VendingWrite> {
    /// The batch cut after each write that adds items, so that the writes after it decide
    /// against a book read again, which holds the new items.
    var segments: [ArraySlice<PendingWrite<VendingWrite>>] {
        var segments: [ArraySlice<PendingWrite<VendingWrite>>] = []
        var start = startIndex
        for index in indices where self[index].write.addsItems || index == endIndex - 1 {
            segments.append(self[start...index])
            start = index + 1
        }
        return segments
    }
}

extension ArraySlice where Element == PendingWrite<VendingWrite> {
    /// What a book must hold to decide these writes: per product of the catalogue bought, how
    /// many of its oldest items fresh at the latest of their times (as many as it is bought).
    /// Fresh at the latest time, every item read is fresh for every write of the segment, so
    /// none read can turn out expired and leave a purchase short; and an id not in the catalogue
    /// (anything a client sent) never reaches the database: the book refuses it.
    func itemsWanted(of catalog: [Product]) -> (counts: [ProductID: Int], freshAt: Date) {
        let known = Set(catalog.map(\.id))
        var counts: [ProductID: Int] = [:]
        for pending in self {
            if let product = pending.write.purchasedProduct, known.contains(product) { counts[product, default: 0] += 1 }
        }
        return (counts, map(\.time).max() ?? Date())
    }
}

/// A segment of vending writes decided against one reading of the machine. The engine stores
/// `plans` (giving each sale its id) and reads the machine once the whole batch is stored.
typealias DecidedVendingBatch = DecidedBatch<VendingBook>

extension DecidedVendingBatch {
    /// Each write's answer, given the sale id stored for each plan and the machine after the batch.
    func answers(saleIDs: [Int64?], state: VendingState) -> [Result<VendingCommit, any Error>] {
        answers(zip(plans, saleIDs).map { VendingCommit(plan: $0, saleID: $1, state: state) })
    }
}
