import App
import ArgumentParser
import Foundation
import Membership
import Storage

struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Accounts: add members and staff, list them.",
        subcommands: [Add.self, List.self],
        defaultSubcommand: List.self
    )

    static func accounts(_ shop: ShopOptions) async throws -> AccountService {
        AccountService(store: try await shop.open().accounts)
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add an account; the password comes from --password or the first line of standard input.")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "Username: 3 to 20 of a-z, 0-9 and _.") var username: String
        @Flag(help: "Make a staff account (edits stock, restocks, posts news and events).") var staff = false
        @Option(help: "The display name (default: the username).") var name: String?
        @Option(help: "The password (prefer standard input: it stays out of the shell's history).") var password: String?

        func run() async throws {
            try await refusingBadInput {
                guard let password = password ?? readLine(strippingNewline: true), !password.isEmpty else {
                    throw RefusedInput(description: "give a password with --password or on standard input")
                }
                let account = try await UsersCommand.accounts(shop).signUp(
                    username: username, password: password, name: name ?? username, role: staff ? .staff : .member)
                print("added \(account.role.rawValue) \(account.username)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the accounts: username, role, name, and linked sign-ins (kakao) or -.")
        @OptionGroup var options: AnswerOptions

        func run() async throws {
            let accounts = try await UsersCommand.accounts(options.shop).accounts().map(AccountAnswer.init)
            try await options.print(accounts) {
                accounts.map { "\($0.username)\t\($0.role.rawValue)\t\($0.name)\t\($0.identitiesText)" }
            }
        }
    }
}
