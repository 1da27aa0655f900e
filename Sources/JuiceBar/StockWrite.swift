import struct Foundation.Date
import ShopBasics

/// A write to the fruit stock or the menu, as asked: data, so that an engine can take many at
/// once and decide them all against one reading of the book.
public enum StockWrite: Hashable, Sendable {
    /// Sell a cart: every line priced and its stock taken together, one number. A `pickup`
    /// order joins the queue as `received`; otherwise it is made on the spot and `pickedUp` at once.
    case order(OrderRequest)
    /// Take the payment of an order accepted unpaid (a member's app order, paid at the counter).
    case pay(order: Int64, PaymentRequest)
    /// Staff move a queued order forward.
    case move(order: Int64, to: OrderStatus)
    /// Cancel an order, putting back the fruit it took and refunding its payment.
    case cancel(order: Int64, by: Canceller)
    /// Staff set a fruit's reorder level (0: no warning).
    case setLevel(FruitID, Int)
    /// Staff change one fruit's count.
    case change(FruitID, StockChange)
    /// A new fruit with its first count (a delivery).
    case addFruit(Fruit, count: Int)
    case addJuice(Juice)
    /// Staff change a juice's name, price, recipe, option groups or 품절.
    case editJuice(JuiceID, JuiceEdit)
    /// Take a juice off the menu for good; past orders keep naming it.
    case retireJuice(JuiceID)
    /// Add an option group, or replace the one with its id.
    case putOptionGroup(MenuOptionGroup)

    /// Checks what can be checked before anything is read, so bad input never waits for a turn.
    public func validate() throws {
        switch self {
        case .order(let request): try request.payment?.validate()
        case .pay(_, let payment): try payment.validate()
        case .move, .cancel: break
        case .change(_, let change): try change.validate()
        case .addFruit(_, let count), .setLevel(_, let count): try StockLimits.validate(count: count)
        case .addJuice, .editJuice, .retireJuice, .putOptionGroup: break
        }
    }

    /// The stored order this write acts on, which the book must hold to decide it.
    public var existingOrder: Int64? {
        switch self {
        case .move(let order, _), .cancel(let order, _), .pay(let order, _): order
        default: nil
        }
    }
}

/// What a stock write decided: the rows to add and the counts to set. Ids are the engine's to
/// give: a ledger line of an order refers to the order in the same plan.
public struct StockPlan: Hashable, Sendable {
    /// The order made, without its id.
    public var order: Order?
    /// An order moved or cancelled, as it now is.
    public var changedOrder: Order?
    /// The member the order is linked to.
    public var member: Int64?
    /// Ledger lines, without their ids (and, for an order's, without the order's id).
    public var ledger: [LedgerEntry] = []
    /// The new count of every fruit this write changed.
    public var counts: [FruitID: Int] = [:]
    public var newFruit: Fruit?
    public var newJuice: Juice?
    /// A juice edited or retired, as it now is.
    public var changedJuice: Juice?
    /// An option group added or replaced.
    public var optionGroup: MenuOptionGroup?
    /// A fruit whose reorder level was set, with its new level.
    public var newLevel: Fruit?

    /// Whether storing the plan changes the menu, not only counts and orders.
    public var changesMenu: Bool {
        newFruit != nil || newJuice != nil || changedJuice != nil || optionGroup != nil || newLevel != nil
    }
}

/// The fruit stock and the menu as the last commit left them: what every stock write is decided
/// against. The one place the rules for orders, the queue, edits and new menu items are applied;
/// engines only read the book and store the plans it gives.
public struct JuiceBarBook: Hashable, Sendable {
    public var menu: Menu
    public var stock: Stock
    /// The orders the writes being decided act on (moves, cancels), by id.
    public var orders: [Int64: Order]
    /// The last number given on each shop day the writes fall on (none yet: absent).
    public var lastNumbers: [String: Int]
    public var calendar: ShopCalendar

    public init(menu: Menu, stock: Stock, orders: [Int64: Order] = [:], lastNumbers: [String: Int] = [:],
                calendar: ShopCalendar = ShopCalendar()) {
        self.menu = menu
        self.stock = stock
        self.orders = orders
        self.lastNumbers = lastNumbers
        self.calendar = calendar
    }

    /// Decides `write` by `actor` at `time`: changes the book as the write does and returns what
    /// to store; throws the refusal (`OutOfStock`, `JuiceBarError`, `OrderError`) and leaves the
    /// book as it was.
    public mutating func decide(_ write: StockWrite, actor: String, at time: Date) throws -> StockPlan {
        try write.validate()
        switch write {
        case .order(let request):
            return try order(request, actor: actor, at: time)
        case .pay(let id, let payment):
            return try pay(id, with: payment, at: time)
        case .move(let id, let status):
            return try move(id, to: status, at: time)
        case .cancel(let id, let canceller):
            return try cancel(id, by: canceller, actor: actor, at: time)
        case .change(let fruit, let change):
            return try apply(change, to: fruit, actor: actor, at: time)
        case .addFruit(let fruit, let count):
            return try add(fruit, count: count, actor: actor, at: time)
        case .setLevel(let fruit, let level):
            return try setLevel(of: fruit, to: level)
        case .addJuice(let juice):
            try menu.validateNew(juice)
            menu.juices.append(juice)
            return StockPlan(newJuice: juice)
        case .editJuice(let id, let edit):
            let edited = edit.applied(to: try juiceOnMenu(id))
            try menu.validate(edited)
            return replace(edited)
        case .retireJuice(let id):
            var retired = try juiceOnMenu(id)
            retired.retired = true
            return replace(retired)
        case .putOptionGroup(let group):
            try group.validate(in: menu)
            if let index = menu.optionGroups.firstIndex(where: { $0.id == group.id }) {
                menu.optionGroups[index] = group
            } else {
                menu.optionGroups.append(group)
            }
            var plan = StockPlan()
            plan.optionGroup = group
            return plan
        }
    }

    /// The juice `id` while it is on the menu: a retired one is not changed again.
    private func juiceOnMenu(_ id: JuiceID) throws -> Juice {
        let juice = try menu.requireJuice(id)
        guard !juice.retired else { throw SaleError.soldOut(id) }
        return juice
    }

    /// Puts `juice` in place of the menu's juice with its id.
    private mutating func replace(_ juice: Juice) -> StockPlan {
        menu.juices[menu.juices.firstIndex { $0.id == juice.id }!] = juice
        var plan = StockPlan()
        plan.changedJuice = juice
        return plan
    }

    /// Prices the cart, takes the payment, takes every line's fruit together and gives the order
    /// the next number of its shop day.
    private mutating func order(_ request: OrderRequest, actor: String, at time: Date) throws -> StockPlan {
        let sale = try menu.price(request.lines)
        if let expected = request.expectedTotal, expected != sale.total {
            throw SaleError.priceChanged(expected: expected, total: sale.total)
        }
        let payment = try request.payment?.settle(sale.total, at: time)
        let first = sale.lines[0].juice
        let shortages = stock.shortages(for: sale.uses)
        guard shortages.isEmpty else { throw OutOfStock(juice: first, shortages: shortages) }
        let day = calendar.dayText(of: time)
        let number = lastNumbers[day, default: 0] + 1
        lastNumbers[day] = number
        var plan = StockPlan(member: request.member)
        plan.order = Order(id: 0, juice: first, time: time, actor: actor, number: number, day: day,
                           status: request.pickup ? .received : .pickedUp, readyTime: request.pickup ? nil : time,
                           pickup: request.pickup, member: request.member, sale: sale, payment: payment)
        for line in sale.lines {
            for ingredient in line.uses { stock[ingredient.fruit] -= ingredient.amount }
            record(line.uses, of: line.juice, taken: true, cause: .order, orderID: nil, actor: actor, at: time, in: &plan)
        }
        return plan
    }

    private mutating func pay(_ id: Int64, with request: PaymentRequest, at time: Date) throws -> StockPlan {
        var order = try requireOrder(id)
        guard order.status != .cancelled else { throw SaleError.orderCancelled(order: id) }
        guard order.payment == nil else { throw SaleError.alreadyPaid(order: id) }
        order.payment = try request.settle(order.total, at: time)
        orders[id] = order
        return StockPlan(changedOrder: order)
    }

    private mutating func move(_ id: Int64, to status: OrderStatus, at time: Date) throws -> StockPlan {
        var order = try requireOrder(id)
        guard order.status.canMove(to: status) else { throw OrderError.cannotMove(from: order.status, to: status) }
        order.move(to: status, at: time)
        orders[id] = order
        return StockPlan(changedOrder: order)
    }

    /// Puts back the fruit the order took, each count checked before any is changed, and refunds
    /// its payment.
    private mutating func cancel(_ id: Int64, by canceller: Canceller, actor: String, at time: Date) throws -> StockPlan {
        var order = try requireOrder(id)
        try OrderRules.mayCancel(order, by: canceller)
        let taken: [(juice: JuiceID, uses: [Ingredient])] = order.lines.isEmpty
            ? [(order.juice, try menu.requireJuice(order.juice).recipe)]
            : order.lines.map { ($0.juice, $0.uses) }
        var returned = stock
        for ingredient in taken.flatMap(\.uses) {
            returned[ingredient.fruit] += ingredient.amount
            try StockLimits.validate(count: returned[ingredient.fruit])
        }
        order.move(to: .cancelled, at: time)
        order.refund = order.payment?.refunded(at: time)
        orders[id] = order
        var plan = StockPlan(changedOrder: order)
        for line in taken {
            for ingredient in line.uses { stock[ingredient.fruit] += ingredient.amount }
            record(line.uses, of: line.juice, taken: false, cause: .cancel, orderID: id, actor: actor, at: time, in: &plan)
        }
        return plan
    }

    /// A ledger line and the new count for each fruit `uses` names, taken or given back: called
    /// once the line's change is in `stock`, so each line's counts follow the line before.
    private func record(_ uses: [Ingredient], of juice: JuiceID, taken: Bool, cause: StockChangeCause, orderID: Int64?,
                        actor: String, at time: Date, in plan: inout StockPlan) {
        for ingredient in uses {
            plan.counts[ingredient.fruit] = stock[ingredient.fruit]
            plan.ledger.append(LedgerEntry(
                id: 0, time: time, fruit: ingredient.fruit, delta: taken ? -ingredient.amount : ingredient.amount,
                countAfter: stock[ingredient.fruit], cause: cause, juice: juice, orderID: orderID, actor: actor))
        }
    }

    private mutating func apply(_ change: StockChange, to fruit: FruitID, actor: String, at time: Date) throws -> StockPlan {
        _ = try menu.requireFruit(fruit)
        let before = stock[fruit]
        let after = try change.apply(to: before)
        stock[fruit] = after
        var plan = StockPlan()
        plan.counts[fruit] = after
        plan.ledger.append(LedgerEntry(
            id: 0, time: time, fruit: fruit, delta: after - before, countAfter: after, cause: change.cause,
            juice: nil, orderID: nil, actor: actor))
        return plan
    }

    private mutating func add(_ fruit: Fruit, count: Int, actor: String, at time: Date) throws -> StockPlan {
        try menu.validateNew(fruit)
        menu.fruits.append(fruit)
        stock[fruit.id] = count
        var plan = StockPlan(newFruit: fruit)
        plan.counts[fruit.id] = count
        plan.ledger.append(LedgerEntry(
            id: 0, time: time, fruit: fruit.id, delta: count, countAfter: count, cause: .delivery,
            juice: nil, orderID: nil, actor: actor))
        return plan
    }

    private mutating func setLevel(of id: FruitID, to level: Int) throws -> StockPlan {
        _ = try menu.requireFruit(id)
        let index = menu.fruits.firstIndex { $0.id == id }!
        menu.fruits[index].level = level
        return StockPlan(newLevel: menu.fruits[index])
    }

    private func requireOrder(_ id: Int64) throws(OrderError) -> Order {
        guard let order = orders[id] else { throw .unknownOrder(id) }
        return order
    }
}
