import App
import ArgumentParser
import Foundation
import JuiceBar
import Membership
import ShopBasics
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

    struct Status: MachineCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Balance and stock by product.")
        @OptionGroup var options: AnswerOptions

        func run(on machine: any VendingStore) async throws {
            let state = try await machine.state(at: Date())
            try await options.print(VendingAnswer(state)) {
                [said(balance: state.money.balance)] + state.products.map { entry in
                    let expired = entry.expired > 0 ? " (+\(entry.expired) expired)" : ""
                    return "\(entry.product.id): \(entry.stock)\(expired) · \(ProductDescription.of(entry.product, in: .ko))"
                }
            }
        }
    }

    struct Insert: MachineCommand {
        static let configuration = CommandConfiguration(commandName: "insert", abstract: "Insert money: 100, 500, 1000, 5000 or 10000.")
        @OptionGroup var options: AnswerOptions
        @Argument(help: "Won.") var amount: String

        func run(on machine: any VendingStore) async throws {
            let state = try await machine.insert(try wholeNumber(amount), actor: cliActor, at: Date())
            try await options.print(VendingAnswer(state)) { [said(balance: state.money.balance)] }
        }
    }

    struct Buy: MachineCommand {
        static let configuration = CommandConfiguration(
            commandName: "buy", abstract: "Buy a product. Exits 1 when refused (balance, sold out, expired).")
        @OptionGroup var options: AnswerOptions
        @Argument(help: "The product's id, e.g. cola.") var product: String

        func run(on machine: any VendingStore) async throws {
            let answer = PurchaseAnswer(try await machine.purchase(product, actor: cliActor, at: Date()))
            try await options.print(answer) { [answer.description, said(balance: answer.balance)] }
        }
    }

    struct ReturnChange: MachineCommand {
        static let configuration = CommandConfiguration(commandName: "change", abstract: "Return the balance as change.")
        @OptionGroup var options: AnswerOptions

        func run(on machine: any VendingStore) async throws {
            let change = try await machine.returnChange(actor: cliActor, at: Date())
            try await options.print(ChangeAnswer(change)) {
                let units = change.change.units.sorted { $0.key > $1.key }.map { "\(Won.format($0.key)) × \($0.value)" }
                return ["거스름돈: \(Won.format(change.change.returned))" + (units.isEmpty ? "" : " (\(units.joined(separator: ", ")))")]
            }
        }
    }

    struct RestockProduct: MachineCommand {
        static let configuration = CommandConfiguration(commandName: "restock", abstract: "Add items of a product.")
        @OptionGroup var options: AnswerOptions
        @Argument(help: "The product's id.") var product: String
        @Argument(help: "How many, 1...1000.") var count: String
        @Option(help: "Manufactured on YYYY-MM-DD (default: now).") var manufactured: String?

        func run(on machine: any VendingStore) async throws {
            let day = try manufactured.map(parseDay)
            let state = try await machine
                .restock(product, count: try wholeNumber(count), manufactured: day ?? Date(), actor: cliActor, at: Date())
            try await options.print(VendingAnswer(state)) {
                ["\(product): \(state.products.first { $0.product.id == product }?.stock ?? 0)"]
            }
        }
    }

    struct History: MachineCommand {
        static let configuration = CommandConfiguration(commandName: "history", abstract: "Purchases, newest first.")
        @OptionGroup var options: AnswerOptions
        @OptionGroup var limit: LimitOption

        func run(on machine: any VendingStore) async throws {
            let sales = try await machine.history(limit: limit.limit)
            try await options.print(sales) {
                sales.map { "#\($0.id) \($0.product) \(Won.format($0.price)) \($0.time.formatted(.iso8601))" }
            }
        }
    }

    struct Expired: MachineCommand {
        static let configuration = CommandConfiguration(commandName: "expired", abstract: "Items past their date.")
        @OptionGroup var options: AnswerOptions

        func run(on machine: any VendingStore) async throws {
            let items = try await machine.expiredItems(at: Date())
            try await options.print(items) { items.map { "\($0.product) #\($0.id) expired \($0.expires.formatted(.iso8601))" } }
        }
    }

    struct Sales: MachineCommand {
        static let configuration = CommandConfiguration(
            commandName: "sales", abstract: "Units and won sold per product; with --csv, every sale.")
        @OptionGroup var options: AnswerOptions
        @OptionGroup var export: CSVOptions

        func run(on machine: any VendingStore) async throws {
            if export.csv {
                return try await export.print(ShopExports.sales(machine, calendar: shopCalendar, language: cliLanguage))
            }
            let sales = try await machine.sales()
            try await options.print(sales) { sales.map { "\($0.product): \($0.units) sold, \(Won.format($0.won))" } }
        }
    }
}

/// A command on the vending machine that says what it found or did (`options.print`): `run` opens
/// the shop and ends a refusal as `refusingBadInput` says; the command does its part in `run(on:)`.
protocol MachineCommand: AsyncParsableCommand {
    var options: AnswerOptions { get }
    func run(on machine: any VendingStore) async throws
}

extension MachineCommand {
    func run() async throws {
        try await refusingBadInput { try await run(on: try await options.shop.open().vending) }
    }
}

/// What the machine holds for whoever stands at it: `잔액: 5,000원`.
private func said(balance: Int) -> String {
    "잔액: \(Won.format(balance))"
}

/// `YYYY-MM-DD` as midnight in the shop's time zone.
func parseDay(_ text: String) throws -> Date {
    guard let date = shopCalendar.day(text) else { throw RefusedInput(description: say(ContentError.invalidDay(text), in: cliLanguage)) }
    return date
}
