import Foundation
internal import GRDB
@testable import Storage
import Testing

/// What the SQLite engine promises about its file: commits synced to disk, a file that is not
/// a shop never silently replaced, a full disk or a vanished file refused with nothing partial.
@Suite struct SQLiteFileTests {
    let folder: TemporaryFolder
    let path: String

    init() throws {
        folder = try TemporaryFolder()
        path = folder.url.appendingPathComponent("shop.sqlite").path
    }

    @Test func theWriterSyncsEveryCommitAfterGRDBsWALSetUp() throws {
        let database = try SQLiteDatabase(path: path)
        #expect(try database.writerSynchronousLevel() == SQLiteDatabase.fullSynchronous)
    }

    @Test func anEmptyFileIsRefusedAndLeftAsItWas() throws {
        FileManager.default.createFile(atPath: path, contents: Data())
        #expect(throws: StorageError.self) { try SQLiteDatabase(path: path) }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAndLeftAsItWas() throws {
        let notes = Data("shopping list: kiwi, mango\n".utf8)
        FileManager.default.createFile(atPath: path, contents: notes)
        #expect(throws: StorageError.self) { try SQLiteDatabase(path: path) }
        #expect(FileManager.default.contents(atPath: path) == notes)
    }

    @Test func aMissingFileIsANewShop() async throws {
        let store = SQLiteJuiceBarStore(database: try SQLiteDatabase(path: path))
        #expect(try await store.stock().stock["banana"] == 10)
    }

    @Test func writesAfterTheFileIsDeletedFailLoudly() async throws {
        let store = SQLiteJuiceBarStore(database: try SQLiteDatabase(path: path))
        _ = try await store.order("bananaJuice", actor: "test")
        try FileManager.default.removeItem(atPath: path)
        await #expect(throws: StorageError.self) { try await store.order("bananaJuice", actor: "test") }
    }

    @Test func writesAfterTheFileIsReplacedFailLoudly() async throws {
        let store = SQLiteJuiceBarStore(database: try SQLiteDatabase(path: path))
        let other = folder.url.appendingPathComponent("other.sqlite").path
        _ = try SQLiteDatabase(path: other)
        #expect(rename(other, path) == 0)
        await #expect(throws: StorageError.self) { try await store.order("bananaJuice", actor: "test") }
    }

    @Test func aFullDiskIsStorageFullAndLeavesNothingPartial() async throws {
        let database = try SQLiteDatabase(path: path)
        let store = SQLiteJuiceBarStore(database: database)
        _ = try await store.setStock("banana", to: 1_000_000, actor: "test")
        // The file may not grow by a page more: what a full disk looks like to SQLite.
        try await database.pool.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        var made = 0
        var failure: (any Error)?
        while failure == nil && made < 10_000 {
            do {
                _ = try await store.order("bananaJuice", actor: "test")
                made += 1
            } catch {
                failure = error
            }
        }
        #expect(failure as? StorageError == .full, "\(String(describing: failure))")
        #expect(try await store.stock().stock["banana"] == 1_000_000 - 2 * made)
        #expect(try await store.orders(limit: nil).count == made)
    }
}
