import ArgumentParser
import Foundation
import Storage

/// What the two commands say of a PostgreSQL shop, whose server has its own tools.
private let postgresIsDumped = "a PostgreSQL shop is backed up and restored with pg_dump and pg_restore"

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a SQLite shop into a new file while servers keep serving (SQLite's online backup).")
    @OptionGroup var shop: ShopOptions
    @Argument(help: "The new file to write the copy to.") var file: String

    func run() async throws {
        try shop.withSQLiteFile { location in try SQLiteBackup.backup(location, to: file); return "backed up \(location) to \(file)" }
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup in place of a SQLite shop that no server is using (refused, changing nothing, when one is).")
    @OptionGroup var shop: ShopOptions
    @Argument(help: "The backup to restore.") var file: String

    func run() async throws {
        try shop.withSQLiteFile { location in try SQLiteBackup.restore(file, to: location); return "restored \(file) to \(location)" }
    }
}

extension ShopOptions {
    /// Runs `operation` on the shop's SQLite file and prints what it says it did; a PostgreSQL shop,
    /// or a file that cannot be used (missing, in use, not a shop), ends the command with exit 2 and its reason.
    func withSQLiteFile(_ operation: (_ location: String) throws -> String) throws {
        guard !isPostgres else { throw fail(postgresIsDumped, code: 2) }
        do {
            print(try operation(location))
        } catch StorageError.unusable(let reason) {
            throw fail(reason, code: 2)
        }
    }
}
