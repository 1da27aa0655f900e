import Foundation
import Storage

/// A fresh SQLite file in its own temporary folder, removed when the test is done with it.
final class TemporaryDatabase: Sendable {
    let folder: URL
    var path: String { folder.appendingPathComponent("shop.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("juicemaker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func juiceBar() throws -> SQLiteJuiceBarStore {
        SQLiteJuiceBarStore(database: try SQLiteDatabase(path: path))
    }
}
