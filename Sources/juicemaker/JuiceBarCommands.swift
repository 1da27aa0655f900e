import App
import ArgumentParser
import Foundation
import JuiceBar
import Storage

struct MenuCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menu",
        abstract: "Show the juices, their recipes and how many can be made now; add fruits and juices.",
        subcommands: [ShowMenu.self, AddFruit.self, AddJuice.self],
        defaultSubcommand: ShowMenu.self
    )

    struct MenuItem: Encodable {
        let id: JuiceID
        let name: LocalizedName
        let recipe: [Ingredient]
        let makeable: Int
    }

    struct ShowMenu: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the menu.")
        @OptionGroup var shop: ShopOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let store = try await shop.openJuiceBar()
            let menu = try await store.menu()
            let stock = try await store.stock().stock
            let items = menu.juices.map {
                MenuItem(id: $0.id, name: $0.name, recipe: $0.recipe, makeable: stock.makeableCount(of: $0))
            }
            if json { return try printJSON(items) }
            for item in items {
                let recipe = item.recipe
                    .map { "\(menu.fruit($0.fruit)?.name.ko ?? $0.fruit.rawValue) \($0.amount)" }
                    .joined(separator: " + ")
                print("\(item.name.ko) (\(item.id)): \(recipe) — \(item.makeable) can be made")
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
            try await refusingBadInput {
                let fruit = Fruit(id: FruitID(id), name: LocalizedName(ko: ko, en: en), emoji: emoji)
                _ = try await shop.openJuiceBar().addFruit(fruit, count: try StockLimits.parseCount(count), actor: cliActor)
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

        func run() async throws {
            try await refusingBadInput {
                let ingredients = try recipe.split(separator: ",").map { pair throws(JuiceBarError) in
                    let parts = pair.split(separator: ":")
                    guard parts.count == 2, let amount = Int(parts[1]) else { throw .notANumber(String(pair)) }
                    return Ingredient(fruit: FruitID(String(parts[0])), amount: amount)
                }
                let juice = Juice(id: JuiceID(id), name: LocalizedName(ko: ko, en: en), recipe: ingredients)
                _ = try await shop.openJuiceBar().addJuice(juice)
                print("added \(juice.name.ko) (\(juice.id))")
            }
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

    struct ShowStock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the stock.")
        @OptionGroup var shop: ShopOptions
        @Flag(help: "Print one JSON object of fruit id → count.") var json = false

        func run() async throws {
            let store = try await shop.openJuiceBar()
            let stock = try await store.stock().stock
            if json { return try printJSON(stock) }
            for fruit in try await store.menu().fruits {
                print("\(fruit.emoji) \(fruit.name.ko) (\(fruit.id)): \(stock[fruit.id])")
            }
        }
    }

    struct SetStock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Set a fruit's count.")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The fruit's id.") var fruit: String
        @Argument(help: "The new count, 0...1000000.") var count: String

        func run() async throws {
            try await refusingBadInput {
                let stock = try await shop.openJuiceBar()
                    .setStock(FruitID(fruit), to: try StockLimits.parseCount(count), actor: cliActor)
                print("\(fruit): \(stock.stock[FruitID(fruit)])")
            }
        }
    }

    struct AddStock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Record a delivery of fruit.")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The fruit's id.") var fruit: String
        @Argument(help: "How many arrived.") var count: String

        func run() async throws {
            try await refusingBadInput {
                let stock = try await shop.openJuiceBar()
                    .deliver(FruitID(fruit), count: try StockLimits.parseCount(count), actor: cliActor)
                print("\(fruit): \(stock.stock[FruitID(fruit)])")
            }
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
            try await refusingBadInput {
                let commit = try await shop.openJuiceBar()
                    .commit(.setLevel(FruitID(fruit), try StockLimits.parseCount(level)), actor: cliActor)
                let count = commit.snapshot.stock[FruitID(fruit)]
                let set = commit.plan.newLevel!
                print("\(fruit): level \(set.level), \(count) in stock\(set.isLow(count: count) ? " (low)" : "")")
            }
        }
    }
}

struct OrderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order",
        abstract: "Make a juice on the spot, or queue it for pickup. Exits 1 when the fruit is short, naming each short fruit."
    )
    @OptionGroup var shop: ShopOptions
    @Argument(help: "The juice's id, e.g. strawberryBananaJuice.") var juice: String
    @Flag(help: "Queue the order for pickup (received, with a number) instead of making it on the spot.") var pickup = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await refusingBadInput {
            let store = try await shop.openJuiceBar()
            do {
                let receipt = try await store.order(JuiceID(juice), actor: cliActor, pickup: pickup)
                if json { return try printJSON(receipt) }
                let name = try await store.menu().juice(receipt.order.juice)?.name.ko ?? juice
                if pickup {
                    print("\(receipt.order.number)번 \(name) 접수 (order \(receipt.order.id))")
                } else {
                    print("\(name) 나왔습니다! 맛있게 드세요! (order \(receipt.order.id), \(receipt.order.number)번)")
                }
            } catch let refusal as OutOfStock {
                if json {
                    struct Refusal: Encodable { let error = "out_of_stock", juice: JuiceID, shortages: [Shortage] }
                    try printJSON(Refusal(juice: refusal.juice, shortages: refusal.shortages))
                }
                throw fail(say(refusal, in: cliLanguage, menu: try await store.menu()), code: 1)
            }
        }
    }
}

struct OrdersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orders", abstract: "Orders made, newest first; with --csv, every order, oldest first.")
    @OptionGroup var shop: ShopOptions
    @OptionGroup var limit: LimitOption
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var export: CSVOptions

    func run() async throws {
        if export.csv {
            let store = try await shop.openJuiceBar()
            return try await export.print(
                ShopExports.orders(store, menu: try await store.menu(), calendar: ShopCalendar(), language: cliLanguage))
        }
        let orders = try await shop.openJuiceBar().orders(limit: limit.limit)
        if json { return try printJSON(orders) }
        for order in orders {
            print("#\(order.id) \(order.juice) \(order.time.formatted(.iso8601)) \(order.actor)")
        }
    }
}

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "The stock ledger, newest first; with --csv, every line, oldest first.")
    @OptionGroup var shop: ShopOptions
    @OptionGroup var limit: LimitOption
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var export: CSVOptions

    func run() async throws {
        if export.csv {
            let store = try await shop.openJuiceBar()
            return try await export.print(
                ShopExports.ledger(store, menu: try await store.menu(), calendar: ShopCalendar(), language: cliLanguage))
        }
        let entries = try await shop.openJuiceBar().ledger(limit: limit.limit)
        if json { return try printJSON(entries) }
        for entry in entries {
            let delta = entry.delta >= 0 ? "+\(entry.delta)" : "\(entry.delta)"
            let reason = [entry.cause.rawValue, entry.juice?.rawValue].compactMap { $0 }.joined(separator: " ")
            print("\(entry.time.formatted(.iso8601)) \(entry.fruit) \(delta) → \(entry.countAfter) (\(reason)) by \(entry.actor)")
        }
    }
}

struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue", abstract: "The active orders (received, making, ready), oldest first.")
    @OptionGroup var shop: ShopOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let store = try await shop.openJuiceBar()
        let queue = try await store.queue()
        if json { return try printJSON(queue) }
        let menu = try await store.menu()
        let now = Date()
        for order in queue {
            let name = menu.juice(order.juice)?.name.ko ?? order.juice.rawValue
            let age = Int(now.timeIntervalSince(order.time))
            print("\(order.number)번 \(name) \(order.status.rawValue) \(age / 60)m\(age % 60)s (order \(order.id))")
        }
    }
}

struct OrderStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order-status",
        abstract: "Move a queued order forward: making, ready or pickedUp. Exits 1 when the order cannot move there.")
    @OptionGroup var shop: ShopOptions
    @Argument(help: "The order's id.") var id: String
    @Argument(help: "making, ready or pickedUp.") var status: String
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await refusingBadInput {
            let order = try await shop.openJuiceBar()
                .move(order: try orderID(id), to: try orderStatus(status), actor: cliActor)
            if json { return try printJSON(order) }
            print("\(order.number)번 (order \(order.id)): \(order.status.rawValue)")
        }
    }
}

struct CancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel an order (as staff: while received or making) and put its fruit back. Exits 1 when it is too late.")
    @OptionGroup var shop: ShopOptions
    @Argument(help: "The order's id.") var id: String
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await refusingBadInput {
            let receipt = try await shop.openJuiceBar().cancel(order: try orderID(id), by: .staff, actor: cliActor)
            if json { return try printJSON(receipt) }
            print("\(receipt.order.number)번 (order \(receipt.order.id)): cancelled")
        }
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
