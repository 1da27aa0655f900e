import ArgumentParser
import Foundation

@main
struct JuiceMakerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "juicemaker",
        abstract: "JuiceMaker: a juice bar and beverage shop.",
        subcommands: [
            ServeCommand.self, MenuCommand.self, StockCommand.self, OrderCommand.self, OrdersCommand.self, HistoryCommand.self,
        ]
    )

    /// Runs the command, reporting any failure in one line: a parse or validation error exits 64,
    /// refused input 2, a shortage 1 (the only "expected no").
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = message(for: error)
            if !message.isEmpty {
                if code == .success {
                    print(message)
                } else {
                    FileHandle.standardError.write(Data(((message.hasPrefix("Error") ? "" : "error: ") + message + "\n").utf8))
                }
            }
            Foundation.exit(code.rawValue)
        }
    }
}
