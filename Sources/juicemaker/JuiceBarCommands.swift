import App
import ArgumentParser
import Foundation
import JuiceBar
import ShopBasics
import Storage

struct MenuCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menu",
        abstract: "Show the juices, their prices, recipes and how many can be made now; add fruits and juices, "
            + "price them, mark them sold out, retire them.",
        subcommands: [ShowMenu.self, AddFruit.self, AddJuice.self, SetPrice.self, SoldOut.self, Retire.self],
        defaultSubcommand: ShowMenu.self
    )

    struct ShowMenu: JuiceBarCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the menu.")
        @OptionGroup var options: AnswerOptions

        func run(on store: any JuiceBarStore) async throws {
            let menu = try await store.menu()
            let answer = MenuAnswer(menu: menu, stock: try await store.stock().stock)
            try await options.print(answer) {
                answer.juices.map { item in
                    let recipe = item.recipe
                        .map { "\(menu.fruit($0.fruit)?.name.ko ?? $0.fruit.rawValue) \($0.amount)" }
                        .joined(separator: " + ")
                    let sale = item.soldOut ? "품절" : "\(item.makeable) can be made"
                    return "\(item.name.ko) (\(item.id)) \(Won.format(item.price)): \(recipe) — \(sale)"
                }
            }
        }
    }

    struct AddFruit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add-fruit", abstract: "Add a fruit to the shop.")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The fruit's id, e.g. orange.") var id: String
        @Option(help: "Korean name.") var ko: String
        @Option(help: "English name.") var en: String
        @Option(help: "An emoji for its label.") var emoji = "🍹"
        @Option(help: "Starting count.") var count = "0"

        func run() async throws {
            try await shop.withJuiceBar { store in
                let fruit = Fruit(id: FruitID(id), name: LocalizedName(ko: ko, en: en), emoji: emoji)
                _ = try await store.addFruit(fruit, count: try StockLimits.parseCount(count), actor: cliActor)
                print("added \(fruit.name.ko) (\(fruit.id))")
            }
        }
    }

    struct AddJuice: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add-juice", abstract: "Add a juice to the menu.")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The juice's id, e.g. orangeJuice.") var id: String
        @Option(help: "Korean name.") var ko: String
        @Option(help: "English name.") var en: String
        @Option(help: "The recipe as fruit:amount pairs, e.g. orange:3,banana:1.") var recipe: String
        @Option(help: "Its price in won, VAT included.") var price = "0"
        @Option(help: "Its option groups, e.g. size,ice,sweetness.") var options = ""

        func run() async throws {
            try await shop.withJuiceBar { store in
                let ingredients = try recipe.split(separator: ",").map { pair throws(JuiceBarError) in
                    let parts = pair.split(separator: ":")
                    guard parts.count == 2, let amount = Int(parts[1]) else { throw .notANumber(String(pair)) }
                    return Ingredient(fruit: FruitID(String(parts[0])), amount: amount)
                }
                let juice = Juice(id: JuiceID(id), name: LocalizedName(ko: ko, en: en), recipe: ingredients,
                                  price: try wholeNumber(price),
                                  optionGroups: options.split(separator: ",").map { OptionGroupID(String($0)) })
                _ = try await store.addJuice(juice)
                print("added \(juice.name.ko) (\(juice.id))")
            }
        }
    }
}

extension MenuCommand {
    struct SetPrice: MenuEditCommand {
        static let configuration = CommandConfiguration(commandName: "price", abstract: "Set a juice's price in won.")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The juice's id.") var juice: String
        @Argument(help: "The new price, 0...1000000, VAT included.") var price: String

        func write() throws -> StockWrite { .editJuice(JuiceID(juice), JuiceEdit(price: try wholeNumber(price))) }
        func said(_ juice: Juice) -> String { "\(juice.name.ko) \(Won.format(juice.price))" }
    }

    struct SoldOut: MenuEditCommand {
        static let configuration = CommandConfiguration(
            commandName: "sold-out", abstract: "Mark a juice 품절 for now, or (--back) on sale again.")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The juice's id.") var juice: String
        @Flag(help: "Put it back on sale.") var back = false

        func write() throws -> StockWrite { .editJuice(JuiceID(juice), JuiceEdit(soldOut: !back)) }
        func said(_ juice: Juice) -> String { "\(juice.name.ko) \(juice.soldOut ? "품절" : "on sale")" }
    }

    struct Retire: MenuEditCommand {
        static let configuration = CommandConfiguration(
            commandName: "retire", abstract: "Take a juice off the menu for good; past orders keep its name.")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The juice's id.") var juice: String

        func write() throws -> StockWrite { .retireJuice(JuiceID(juice)) }
        func said(_ juice: Juice) -> String { "retired \(juice.name.ko) (\(juice.id))" }
    }
}

/// A command of 메뉴 관리: it stores its write and says what became of the juice.
protocol MenuEditCommand: AsyncParsableCommand {
    var shop: ShopOptions { get }
    func write() throws -> StockWrite
    func said(_ juice: Juice) -> String
}

extension MenuEditCommand {
    func run() async throws {
        try await shop.withJuiceBar { store in
            let commit = try await store.commit(try write(), actor: cliActor)
            if let juice = commit.plan.changedJuice { print(said(juice)) }
        }
    }
}

struct StockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stock",
        abstract: "Show or change the fruit stock.",
        subcommands: [ShowStock.self, SetStock.self, AddStock.self, SetLevel.self],
        defaultSubcommand: ShowStock.self
    )

    struct ShowStock: JuiceBarCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the stock.")
        @OptionGroup var options: AnswerOptions

        func run(on store: any JuiceBarStore) async throws {
            let stock = try await store.stock().stock
            try await options.print(stock) {
                try await store.menu().fruits.map { "\($0.emoji) \($0.name.ko) (\($0.id)): \(stock[$0.id])" }
            }
        }
    }

    struct SetStock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Set a fruit's count.")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The fruit's id.") var fruit: String
        @Argument(help: "The new count, 0...1000000.") var count: String

        func run() async throws {
            try await shop.changeCount(of: fruit) { store, fruit in
                try await store.setStock(fruit, to: try StockLimits.parseCount(count), actor: cliActor)
            }
        }
    }

    struct AddStock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Record a delivery of fruit.")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The fruit's id.") var fruit: String
        @Argument(help: "How many arrived.") var count: String

        func run() async throws {
            try await shop.changeCount(of: fruit) { store, fruit in
                try await store.deliver(fruit, count: try StockLimits.parseCount(count), actor: cliActor)
            }
        }
    }
}

/// A command on the juice bar that says what it found or did (`options.print`): `run` opens the
/// shop and ends a refusal as `refusingBadInput` says; the command does its part in `run(on:)`.
protocol JuiceBarCommand: AsyncParsableCommand {
    var options: AnswerOptions { get }
    func run(on store: any JuiceBarStore) async throws
}

extension JuiceBarCommand {
    func run() async throws {
        try await options.shop.withJuiceBar { try await run(on: $0) }
    }
}

extension ShopOptions {
    /// Changes one fruit's count and says the new one: `kiwi: 25`.
    func changeCount(of fruit: String, _ change: (any JuiceBarStore, FruitID) async throws -> StockSnapshot) async throws {
        try await withJuiceBar { store in
            let snapshot = try await change(store, FruitID(fruit))
            print("\(fruit): \(snapshot.stock[FruitID(fruit)])")
        }
    }
}

extension StockCommand {
    struct SetLevel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "level", abstract: "Set a fruit's reorder level: at or below it the fruit is marked low (0: never).")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The fruit's id.") var fruit: String
        @Argument(help: "The reorder level, 0...1000000.") var level: String

        func run() async throws {
            try await shop.withJuiceBar { store in
                let commit = try await store.commit(.setLevel(FruitID(fruit), try StockLimits.parseCount(level)), actor: cliActor)
                let set = StockLevelAnswer(commit.plan.newLevel!, count: commit.snapshot.stock[FruitID(fruit)])
                print("\(fruit): level \(set.level), \(set.count) in stock\(set.low ? " (low)" : "")")
            }
        }
    }
}

struct OrderCommand: JuiceBarCommand {
    static let configuration = CommandConfiguration(
        commandName: "order",
        abstract: "Sell cups of a juice, made on the spot or queued for pickup, paid now or later. Exits 1 when the fruit is short (naming each short fruit), the juice is 품절 or the cash is short."
    )
    @OptionGroup var options: AnswerOptions
    @Argument(help: "The juice's id, e.g. strawberryBananaJuice.") var juice: String
    @Flag(help: "Queue the order for pickup (received, with a number) instead of making it on the spot.") var pickup = false
    @Option(help: "Cups, 1...99.") var quantity = 1
    @Option(name: .customLong("option"), help: "A choice as group=option, e.g. size=large; once per choice. Groups not named get their defaults.")
    var choices: [String] = []
    @Option(help: "Paid now: cash, card or transfer. Without it the order is paid later (POST /api/orders/{id}/payment).")
    var pay: PaymentMethod?
    @Option(help: "With --pay cash: the cash handed over (default: exactly the total).") var received: Int?
    @Option(help: "With --pay card: the card terminal's approval number.") var approval: String?

    func run(on store: any JuiceBarStore) async throws {
        var chosen: [OptionGroupID: [OptionID]] = [:]
        for choice in choices {
            let parts = choice.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw fail("--option \(choice): write it as group=option, e.g. size=large", code: 2)
            }
            chosen[OptionGroupID(parts[0]), default: []].append(OptionID(parts[1]))
        }
        let request = OrderRequest(lines: [CartLine(juice: JuiceID(juice), quantity: quantity, options: chosen)], pickup: pickup,
                                   payment: pay.map { PaymentRequest(method: $0, received: received, approval: approval) })
        do {
            let answer = OrderAnswer(try await store.order(request, actor: cliActor))
            try await options.print(answer) { [said(answer.order, menu: try await store.menu()), paid(answer.order)] }
        } catch let refusal as OutOfStock {
            let menu = try await store.menu()
            if options.json { print(refusalJSON(refusal, in: cliLanguage, menu: menu)) }
            throw fail(say(refusal, in: cliLanguage, menu: menu), code: 1)
        }
    }

    /// The total and how it was paid: `합계 13,500원 · 현금 20,000원, 거스름돈 6,500원`.
    private func paid(_ order: Order) -> String {
        let total = "합계 \(Won.format(order.total))"
        guard let payment = order.payment else { return "\(total) · 미결제 (unpaid)" }
        if let received = payment.received, let change = payment.change {
            return "\(total) · \(payment.method.rawValue) \(Won.format(received)), 거스름돈 \(Won.format(change))"
        }
        return "\(total) · \(payment.method.rawValue)"
    }

    /// What the counter says of an order just made: its number when queued, else that it is ready.
    private func said(_ order: Order, menu: Menu) -> String {
        let name = menu.juice(order.juice)?.name.ko ?? juice
        return pickup ? "\(order.number)번 \(name) 접수 (order \(order.id))"
            : "\(name) 나왔습니다! 맛있게 드세요! (order \(order.id), \(order.number)번)"
    }
}

struct OrdersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orders", abstract: "Orders made, newest first; with --csv, every order, oldest first.")
    @OptionGroup var list: ListOptions

    func run() async throws {
        try await list.print(
            csv: { ShopExports.orders($0, menu: $1, calendar: shopCalendar, language: cliLanguage) },
            newest: { try await $0.orders(limit: $1) },
            line: { "#\($0.id) \($0.juice) \($0.time.formatted(.iso8601)) \($0.actor)" })
    }
}

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "The stock ledger, newest first; with --csv, every line, oldest first.")
    @OptionGroup var list: ListOptions

    func run() async throws {
        try await list.print(
            csv: { ShopExports.ledger($0, menu: $1, calendar: shopCalendar, language: cliLanguage) },
            newest: { try await $0.ledger(limit: $1) },
            line: { entry in
                let delta = entry.delta >= 0 ? "+\(entry.delta)" : "\(entry.delta)"
                let reason = [entry.cause.rawValue, entry.juice?.rawValue].compactMap { $0 }.joined(separator: " ")
                return "\(entry.time.formatted(.iso8601)) \(entry.fruit) \(delta) → \(entry.countAfter) (\(reason)) by \(entry.actor)"
            })
    }
}

struct QueueCommand: JuiceBarCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue", abstract: "The active orders (received, making, ready), oldest first.")
    @OptionGroup var options: AnswerOptions

    func run(on store: any JuiceBarStore) async throws {
        let now = Date()
        let queue = try await store.queue().map { QueueEntry($0, now: now) }
        try await options.print(queue) {
            let menu = try await store.menu()
            return queue.map { entry in
                let name = menu.juice(entry.juice)?.name.ko ?? entry.juice.rawValue
                return "\(entry.number)번 \(name) \(entry.status.rawValue) \(entry.age / 60)m\(entry.age % 60)s (order \(entry.id))"
            }
        }
    }
}

struct OrderStatusCommand: JuiceBarCommand {
    static let configuration = CommandConfiguration(
        commandName: "order-status",
        abstract: "Move a queued order forward: making, ready or pickedUp. Exits 1 when the order cannot move there.")
    @OptionGroup var options: AnswerOptions
    @Argument(help: "The order's id.") var id: String
    @Argument(help: "making, ready or pickedUp.") var status: String

    func run(on store: any JuiceBarStore) async throws {
        let order = try await store.move(order: try orderID(id), to: try orderStatus(status), actor: cliActor)
        try await options.printStatus(of: order)
    }
}

struct CancelCommand: JuiceBarCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel an order (as staff: while received or making) and put its fruit back. Exits 1 when it is too late.")
    @OptionGroup var options: AnswerOptions
    @Argument(help: "The order's id.") var id: String

    func run(on store: any JuiceBarStore) async throws {
        let receipt = try await store.cancel(order: try orderID(id), by: .staff, actor: cliActor)
        try await options.printStatus(of: receipt.order)
    }
}

extension AnswerOptions {
    /// An order after a move or a cancel: as the API answers it (the order), or its number and new status.
    fileprivate func printStatus(of order: Order) async throws {
        try await print(order) { ["\(order.number)번 (order \(order.id)): \(order.status.rawValue)"] }
    }
}

/// An order's id as typed: a whole number, or the refusal that says it is not one.
private func orderID(_ text: String) throws -> Int64 {
    guard let id = Int64(text) else { throw JuiceBarError.notANumber(text) }
    return id
}

private func orderStatus(_ text: String) throws -> OrderStatus {
    guard let status = OrderStatus(rawValue: text) else { throw OrderError.unknownStatus(text) }
    return status
}

extension PaymentMethod: ExpressibleByArgument {}
