import ArgumentParser
import Foundation
import ShopBasics
import Storage

/// `juicemaker shop …`: the shop's own settings, stored with its records.
struct ShopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shop", abstract: "The shop's own settings.", subcommands: [TimeZoneCommand.self, InfoCommand.self])

    struct TimeZoneCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "time-zone", abstract: """
            Print the time zone the shop counts its days in (order numbers, events, exports, day reports), \
            or set it to an IANA name such as Asia/Seoul. Every server and command follows it, whatever the \
            machine's TZ. Exits 2 for an unknown zone, 1 while orders of the shop day under way are still queued.
            """)
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The new time zone, such as Asia/Seoul; without it, the current one is printed.")
        var zone: String?

        func run() async throws {
            try await refusingBadInput {
                let settings = try await shop.open().settings
                guard let zone else { return print(ShopTimeZone.name(of: try await settings.timeZone())) }
                guard let timeZone = ShopTimeZone.named(zone) else { throw ShopSettingError.unknownTimeZone(zone) }
                try await settings.setTimeZone(timeZone, at: Date())
                print("시간대: \(ShopTimeZone.name(of: timeZone))")
            }
        }
    }

    struct InfoCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "info", abstract: """
            Print the shop's info its receipts show, or change the fields given: its name, business \
            registration number (사업자등록번호, 123-45-67890 or 1234567890, its check digit checked), \
            address and phone. An empty value clears a field (not the name). Exits 2 for a refused value.
            """)
        @OptionGroup var options: AnswerOptions
        @Option(help: "The shop's name, as the receipt's header.") var name: String?
        @Option(help: "사업자등록번호: 10 digits, 123-45-67890 or 1234567890.") var businessNumber: String?
        @Option(help: "The shop's address.") var address: String?
        @Option(help: "The shop's phone: digits and dashes, such as 02-123-4567.") var phone: String?

        func run() async throws {
            let edit = ShopInfoEdit(name: name, businessNumber: businessNumber, address: address, phone: phone)
            let info = try await refusingBadInput {
                let settings = try await options.shop.open().settings
                return edit.isEmpty ? try await settings.shopInfo() : try await settings.editShopInfo(edit)
            }
            try await options.print(info) { Self.lines(info) }
        }

        /// One line a field, as a person reads it; a field not given is `-`.
        static func lines(_ info: ShopInfo) -> [String] {
            [("상호", info.name), ("사업자등록번호", info.businessNumber?.description), ("주소", info.address),
             ("전화", info.phone)].map { label, value in "\(label): \(value ?? "-")" }
        }
    }
}
