import Foundation
import Membership

/// An uploaded image, kept as it came.
public struct StoredImage: Sendable {
    public var id: Int64
    public var kind: ImageKind
    public var bytes: [UInt8]
}

/// What staff post for members: news, events and their images.
public protocol ContentStore: Sendable {
    func addImage(_ bytes: [UInt8], kind: ImageKind) async throws -> Int64
    func image(_ id: Int64) async throws -> StoredImage?

    func addNews(title: String, body: String, imageID: Int64?, at time: Date) async throws -> NewsItem
    /// Newest first.
    func news(limit: Int?) async throws -> [NewsItem]

    func addEvent(title: String, body: String, imageID: Int64?, start: Date, end: Date) async throws -> ShopEvent
    func event(_ id: Int64) async throws -> ShopEvent?
    /// Events whose period has not ended by `now`, soonest first.
    func events(endingAfter now: Date) async throws -> [ShopEvent]
}
