import App
import ArgumentParser
import Foundation
import Logging
import Storage

@main
struct JuiceMakerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "juicemaker",
        abstract: "JuiceMaker: a juice bar and beverage shop.",
        subcommands: [
            ServeCommand.self, MenuCommand.self, StockCommand.self, OrderCommand.self, OrdersCommand.self, HistoryCommand.self,
            QueueCommand.self, OrderStatusCommand.self, CancelCommand.self, BackupCommand.self, RestoreCommand.self,
            CloseDayCommand.self, DaysCommand.self, VendingCommand.self, UsersCommand.self, ShopCommand.self,
        ]
    )

    /// Runs the command, reporting any failure in one line: a parse or validation error exits 64,
    /// refused input (a bad database URL too) 2, a refusal by the shop (a shortage, a sold-out
    /// slot, a full disk, the database away) 1, anything else 3.
    static func main() async {
        LoggingSystem.bootstrap { ShopLogHandler(label: $0) }
        defer { LogLines.standardError.flush() }
        var failure: (any Error)?
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            failure = error
        }
        for database in openedDatabases.withLock({ $0 }) { await database.close() }
        if let error = failure {
            var code = exitCode(for: error)
            if case StorageError.invalidLocation = error { code = ExitCode(2) }
            if case StorageError.unusable = error { code = ExitCode(2) }
            if code == .failure && !(error is ExitCode) { code = ExitCode(3) }
            // The shop cannot store it now (a full disk, the database away): a refusal, not a bug.
            if let error = error as? StorageError, error.refusalCause != nil { code = ExitCode(1) }
            let message = message(for: error)
            if !message.isEmpty {
                if code == .success {
                    print(message)
                } else {
                    FileHandle.standardError.write(Data(((message.hasPrefix("Error") ? "" : "error: ") + message + "\n").utf8))
                }
            }
            LogLines.standardError.flush()
            Foundation.exit(code.rawValue)
        }
    }
}
