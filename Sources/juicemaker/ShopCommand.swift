import ArgumentParser
import Foundation
import Storage

/// `juicemaker shop …`: the shop's own settings, stored with its records.
struct ShopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shop", abstract: "The shop's own settings.", subcommands: [TimeZoneCommand.self])

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
}
