import Foundation
import JuiceBar
import ShopBasics

/// A stock write once committed: its plan with the ids the engine gave (the order's, the ledger
/// lines'), and the stock and menu as its batch left them.
public struct StockCommit: Sendable {
    public var plan: StockPlan
    public var snapshot: StockSnapshot
    public var menu: Menu
}

/// What an engine stored of a batch's plans: each plan with its ids, in the order given, and the
/// newest ledger id after them (the new stock version).
struct StoredStockPlans {
    var plans: [StockPlan]
    var version: Int64
}

/// A batch of stock writes decided against one reading of the juice bar's book.
typealias DecidedStockBatch = DecidedBatch<JuiceBarBook>

extension DecidedStockBatch {
    /// Each write's answer once the engine stored `plans`.
    func answers(_ stored: StoredStockPlans) -> [Result<StockCommit, any Error>] {
        let snapshot = StockSnapshot(stock: book.stock, version: stored.version)
        return answers(stored.plans.map { StockCommit(plan: $0, snapshot: snapshot, menu: book.menu) })
    }
}

extension DecidedStockBatch {
    /// A new shop's menu and stock: the seed fruits, each delivered with its first count, the
    /// option groups and the seed juices, decided like any other writes.
    static func seed(at time: Date) -> DecidedStockBatch {
        let writes = Menu.seed.fruits.map { StockWrite.addFruit($0, count: Menu.seedStockPerFruit) }
            + Menu.seed.optionGroups.map { StockWrite.putOptionGroup($0) }
            + Menu.seed.juices.map { StockWrite.addJuice($0) }
        return DecidedStockBatch(writes.map { PendingWrite<StockWrite>(write: $0, actor: "system", time: time) },
                                 on: JuiceBarBook(menu: Menu(fruits: [], juices: []), stock: Stock()))
    }
}

extension StockPlan {
    /// The ledger lines an engine writes for this plan once the order (if any) has its id; a
    /// cancel's lines already name the order they give fruit back for.
    func ledgerLines(orderID: Int64?) -> [LedgerEntry] {
        ledger.map { line in
            var line = line
            if line.cause == .order { line.orderID = orderID }
            return line
        }
    }
}

/// What a batch's book must hold besides the menu and stock: the stored orders its writes act
/// on, and the last number given on each shop day its new orders fall on.
struct BookNeeds {
    let calendar: ShopCalendar
    let orders: Set<Int64>
    let days: Set<String>

    init(_ batch: [PendingWrite<StockWrite>], calendar: ShopCalendar) {
        self.calendar = calendar
        orders = Set(batch.compactMap(\.write.existingOrder))
        days = Set(batch.compactMap { pending in
            guard case .order = pending.write else { return nil }
            return calendar.dayText(of: pending.time)
        })
    }

    /// Whether a book read for these needs holds all `write` needs.
    func covers(_ write: PendingWrite<StockWrite>) -> Bool {
        let own = BookNeeds([write], calendar: calendar)
        return own.days.isSubset(of: days) && own.orders.isSubset(of: orders)
    }
}
