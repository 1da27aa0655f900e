import App
import ArgumentParser
import Foundation
import JuiceBar
import Membership
import Storage
import VendingMachine

struct VendingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vending",
        abstract: "The vending machine: status, money, purchases, change, restocking, sales.",
        subcommands: [Status.self, Insert.self, Buy.self, ReturnChange.self, RestockProduct.self,
                      History.self, Expired.self, Sales.self],
        defaultSubcommand: Status.self
    )

    /// Options every vending command shares.
    struct Options: ParsableArguments {
        @OptionGroup var shop: ShopOptions
        @Flag(help: "Print JSON.") var json = false

        func open() async throws -> any VendingStore {
            try await shop.open().vending
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Balance and stock by product.")
        @OptionGroup var options: Options

        func run() async throws {
            let state = try await options.open().state(at: Date())
            if options.json { return try printJSON(state) }
            print("잔액: \(Won.format(state.money.balance))")
            for entry in state.products {
                let expired = entry.expired > 0 ? " (+\(entry.expired) expired)" : ""
                print("\(entry.product.id): \(entry.stock)\(expired) · \(ProductDescription.of(entry.product, in: .ko))")
            }
        }
    }

    struct Insert: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "insert", abstract: "Insert money: 100, 500, 1000, 5000 or 10000.")
        @OptionGroup var options: Options
        @Argument(help: "Won.") var amount: String

        func run() async throws {
            try await refusingBadInput {
                let state = try await options.open().insert(try wholeNumber(amount), actor: cliActor, at: Date())
                if options.json { return try printJSON(state.money) }
                print("잔액: \(Won.format(state.money.balance))")
            }
        }
    }

    struct Buy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "buy", abstract: "Buy a product. Exits 1 when refused (balance, sold out, expired).")
        @OptionGroup var options: Options
        @Argument(help: "The product's id, e.g. cola.") var product: String

        func run() async throws {
            try await refusingBadInput {
                let receipt = try await options.open().purchase(product, actor: cliActor, at: Date())
                if options.json { return try printJSON(receipt) }
                print(ProductDescription.of(receipt.product, item: receipt.item, in: .ko))
                print("잔액: \(Won.format(receipt.state.money.balance))")
            }
        }
    }

    struct ReturnChange: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "change", abstract: "Return the balance as change.")
        @OptionGroup var options: Options

        func run() async throws {
            let receipt = try await options.open().returnChange(actor: cliActor, at: Date())
            if options.json { return try printJSON(receipt.change) }
            let units = receipt.change.units.sorted { $0.key > $1.key }.map { "\(Won.format($0.key)) × \($0.value)" }
            print("거스름돈: \(Won.format(receipt.change.returned))" + (units.isEmpty ? "" : " (\(units.joined(separator: ", ")))"))
        }
    }

    struct RestockProduct: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "restock", abstract: "Add items of a product.")
        @OptionGroup var options: Options
        @Argument(help: "The product's id.") var product: String
        @Argument(help: "How many, 1...1000.") var count: String
        @Option(help: "Manufactured on YYYY-MM-DD (default: now).") var manufactured: String?

        func run() async throws {
            try await refusingBadInput {
                let day = try manufactured.map(parseDay)
                let state = try await options.open()
                    .restock(product, count: try wholeNumber(count), manufactured: day ?? Date(), actor: cliActor, at: Date())
                if options.json { return try printJSON(state) }
                print("\(product): \(state.products.first { $0.product.id == product }?.stock ?? 0)")
            }
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "history", abstract: "Purchases, newest first.")
        @OptionGroup var options: Options
        @OptionGroup var limit: LimitOption

        func run() async throws {
            let sales = try await options.open().history(limit: limit.limit)
            if options.json { return try printJSON(sales) }
            for sale in sales { print("#\(sale.id) \(sale.product) \(Won.format(sale.price)) \(sale.time.formatted(.iso8601))") }
        }
    }

    struct Expired: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "expired", abstract: "Items past their date.")
        @OptionGroup var options: Options

        func run() async throws {
            let items = try await options.open().expiredItems(at: Date())
            if options.json { return try printJSON(items) }
            for item in items { print("\(item.product) #\(item.id) expired \(item.expires.formatted(.iso8601))") }
        }
    }

    struct Sales: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sales", abstract: "Units and won sold per product; with --csv, every sale.")
        @OptionGroup var options: Options
        @OptionGroup var export: CSVOptions

        func run() async throws {
            if export.csv {
                return try await export.print(ShopExports.sales(try await options.open(), calendar: ShopCalendar(), language: cliLanguage))
            }
            let sales = try await options.open().sales()
            if options.json { return try printJSON(sales) }
            for entry in sales { print("\(entry.product): \(entry.units) sold, \(Won.format(entry.won))") }
        }
    }
}

/// `YYYY-MM-DD` as midnight in this machine's time zone.
func parseDay(_ text: String) throws -> Date {
    guard let date = ShopCalendar().day(text) else { throw RefusedInput(description: say(ContentError.invalidDay(text), in: cliLanguage)) }
    return date
}
