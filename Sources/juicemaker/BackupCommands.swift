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
        guard !shop.isPostgres else { throw fail(postgresIsDumped, code: 2) }
        try refusingUnusableFiles { try SQLiteBackup.backup(shop.location, to: file) }
        print("backed up \(shop.location) to \(file)")
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup in place of a SQLite shop that no server is using (refused, changing nothing, when one is).")
    @OptionGroup var shop: ShopOptions
    @Argument(help: "The backup to restore.") var file: String

    func run() async throws {
        guard !shop.isPostgres else { throw fail(postgresIsDumped, code: 2) }
        try refusingUnusableFiles { try SQLiteBackup.restore(file, to: shop.location) }
        print("restored \(file) to \(shop.location)")
    }
}

/// A file that cannot be used (missing, in use, not a shop) ends the command with exit 2 and its reason.
private func refusingUnusableFiles(_ operation: () throws -> Void) throws {
    do {
        try operation()
    } catch StorageError.unusable(let reason) {
        throw fail(reason, code: 2)
    }
}
