import Foundation
internal import GRDB
import Membership

/// News, events and images in SQLite.
public struct SQLiteContentStore: ContentStore {
    private let database: SQLiteDatabase

    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func addImage(_ bytes: [UInt8], kind: ImageKind) async throws -> Int64 {
        try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO image (content_type, bytes) VALUES (?, ?)", arguments: [kind.rawValue, Data(bytes)])
            return db.lastInsertedRowID
        }
    }

    public func image(_ id: Int64) async throws -> StoredImage? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM image WHERE id = ?", arguments: [id]).flatMap { row in
                guard let kind = ImageKind(rawValue: row["content_type"]) else { return nil }
                return StoredImage(id: row["id"], kind: kind, bytes: [UInt8](row["bytes"] as Data))
            }
        }
    }

    public func addNews(title: String, body: String, imageID: Int64?, at time: Date) async throws -> NewsItem {
        try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO news (title, body, image_id, registered_at) VALUES (?, ?, ?, ?)",
                           arguments: [title, body, imageID, time.storedValue])
            return NewsItem(id: db.lastInsertedRowID, title: title, body: body, imageID: imageID, registeredAt: time)
        }
    }

    public func news(limit: Int?) async throws -> [NewsItem] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM news ORDER BY registered_at DESC, id DESC LIMIT ?", arguments: [limit ?? -1])
                .map { NewsItem(id: $0["id"], title: $0["title"], body: $0["body"], imageID: $0["image_id"],
                                registeredAt: $0["registered_at"]) }
        }
    }

    public func addEvent(title: String, body: String, imageID: Int64?, start: Date, end: Date) async throws -> ShopEvent {
        try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO event (title, body, image_id, starts, ends) VALUES (?, ?, ?, ?, ?)",
                           arguments: [title, body, imageID, start.storedValue, end.storedValue])
            return ShopEvent(id: db.lastInsertedRowID, title: title, body: body, imageID: imageID, start: start, end: end)
        }
    }

    public func event(_ id: Int64) async throws -> ShopEvent? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM event WHERE id = ?", arguments: [id]).map(Self.event)
        }
    }

    public func events(endingAfter now: Date) async throws -> [ShopEvent] {
        // `ends` is the midnight starting the last day; a day later the event is over.
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM event WHERE ends > ? ORDER BY starts, id",
                             arguments: [now.addingTimeInterval(-86_400 * 2).storedValue])
                .map(Self.event)
        }
    }

    private static func event(_ row: Row) -> ShopEvent {
        ShopEvent(id: row["id"], title: row["title"], body: row["body"], imageID: row["image_id"],
                  start: row["starts"], end: row["ends"])
    }
}
