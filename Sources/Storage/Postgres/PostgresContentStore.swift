import Foundation
import Membership
import PostgresNIO

/// News, events and images in PostgreSQL.
public struct PostgresContentStore: ContentStore {
    private let database: PostgresDatabase

    init(database: PostgresDatabase) {
        self.database = database
    }

    public func addImage(_ bytes: [UInt8], kind: ImageKind) async throws -> Int64 {
        try await database.row("""
            INSERT INTO image (content_type, bytes) VALUES (\(kind.rawValue), \(Data(bytes))) RETURNING id
            """).decode(Int64.self)
    }

    public func image(_ id: Int64) async throws -> StoredImage? {
        try await database.rows("SELECT content_type, bytes FROM image WHERE id = \(id)").first.flatMap { row in
            let (contentType, bytes) = try row.decode((String, Data).self)
            return ImageKind(rawValue: contentType).map { StoredImage(id: id, kind: $0, bytes: [UInt8](bytes)) }
        }
    }

    public func addNews(title: String, body: String, imageID: Int64?, at time: Date) async throws -> NewsItem {
        let id = try await database.row("""
            INSERT INTO news (title, body, image_id, registered_at)
            VALUES (\(title), \(body), \(imageID), \(time.storedValue)) RETURNING id
            """).decode(Int64.self)
        return NewsItem(id: id, title: title, body: body, imageID: imageID, registeredAt: time)
    }

    public func news(limit: Int?) async throws -> [NewsItem] {
        try await database.rows("""
            SELECT id, title, body, image_id, registered_at FROM news ORDER BY registered_at DESC, id DESC LIMIT \(limit)
            """).map { row in
            let (id, title, body, imageID, registeredAt) = try row.decode((Int64, String, String, Int64?, Double).self)
            return NewsItem(id: id, title: title, body: body, imageID: imageID, registeredAt: Date(storedValue: registeredAt))
        }
    }

    public func addEvent(title: String, body: String, imageID: Int64?, start: Date, end: Date) async throws -> ShopEvent {
        let id = try await database.row("""
            INSERT INTO event (title, body, image_id, starts, ends)
            VALUES (\(title), \(body), \(imageID), \(start.storedValue), \(end.storedValue)) RETURNING id
            """).decode(Int64.self)
        return ShopEvent(id: id, title: title, body: body, imageID: imageID, start: start, end: end)
    }

    public func event(_ id: Int64) async throws -> ShopEvent? {
        try await database.rows("SELECT \(unescaped: Self.eventColumns) FROM event WHERE id = \(id)")
            .first.map(Self.event)
    }

    public func events(endingAfter now: Date) async throws -> [ShopEvent] {
        // `ends` is the midnight starting the last day; a day later the event is over.
        try await database.rows("""
            SELECT \(unescaped: Self.eventColumns) FROM event
            WHERE ends > \(now.addingTimeInterval(-86_400 * 2).storedValue) ORDER BY starts, id
            """).map(Self.event)
    }

    /// What every read of events selects (`event(_:)` reads it).
    private static let eventColumns = "id, title, body, image_id, starts, ends"

    private static func event(_ row: PostgresRow) throws -> ShopEvent {
        let cells = row.makeRandomAccess()
        return ShopEvent(id: try cells.decode("id"), title: try cells.decode("title"), body: try cells.decode("body"),
                         imageID: try cells.decode("image_id"), start: Date(storedValue: try cells.decode("starts")),
                         end: Date(storedValue: try cells.decode("ends")))
    }
}
