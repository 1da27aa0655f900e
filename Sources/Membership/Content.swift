import Foundation
import ShopBasics

/// A "What's New" item staff post for members.
public struct NewsItem: Hashable, Codable, Sendable {
    public var id: Int64
    public var title: String
    public var body: String
    public var imageID: Int64?
    public var registeredAt: Date

    public init(id: Int64, title: String, body: String, imageID: Int64?, registeredAt: Date) {
        self.id = id
        self.title = title
        self.body = body
        self.imageID = imageID
        self.registeredAt = registeredAt
    }
}

/// An event shown to members as a pop-up from its first day to its last, both included.
public struct ShopEvent: Hashable, Codable, Sendable {
    public var id: Int64
    public var title: String
    public var body: String
    public var imageID: Int64?
    /// Midnight starting the first day, shop time.
    public var start: Date
    /// Midnight starting the last day, shop time.
    public var end: Date

    public init(id: Int64, title: String, body: String, imageID: Int64?, start: Date, end: Date) {
        self.id = id
        self.title = title
        self.body = body
        self.imageID = imageID
        self.start = start
        self.end = end
    }

    public func isCurrent(at now: Date, calendar: Calendar) -> Bool {
        start <= now && now < calendar.date(byAdding: .day, value: 1, to: end)!
    }
}

/// Why posted content is refused.
public enum ContentError: Error, Hashable, Sendable {
    case missingTitle
    /// The field holds a character text may not (NUL).
    case invalidText(field: String)
    case tooLong(field: String, limit: Int)
    case invalidDay(String)
    case endsBeforeItStarts
    case unsupportedImage
    case imageTooLarge(bytes: Int)

    public var code: String {
        switch self {
        case .missingTitle: "missing_title"
        case .invalidText: "invalid_text"
        case .tooLong: "too_long"
        case .invalidDay: "invalid_date"
        case .endsBeforeItStarts: "invalid_period"
        case .unsupportedImage: "unsupported_image"
        case .imageTooLarge: "image_too_large"
        }
    }
}

public enum ContentRules {
    public static let maximumTitle = 100
    public static let maximumBody = 5_000

    public static func validate(title: String, body: String) throws(ContentError) {
        guard WrittenText.isAcceptable(title) else { throw .invalidText(field: "title") }
        guard WrittenText.isAcceptable(body) else { throw .invalidText(field: "body") }
        guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .missingTitle }
        guard title.count <= maximumTitle else { throw .tooLong(field: "title", limit: maximumTitle) }
        guard body.count <= maximumBody else { throw .tooLong(field: "body", limit: maximumBody) }
    }
}

/// The image formats members' pages show, recognised by their first bytes, never by a name.
public enum ImageKind: String, Codable, Sendable {
    case png = "image/png"
    case jpeg = "image/jpeg"
    case webp = "image/webp"

    public static let maximumBytes = 2 * 1024 * 1024

    public static func detect(_ bytes: some Collection<UInt8>) -> ImageKind? {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.count == 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WEBP".utf8) { return .webp }
        return nil
    }

    /// The kind of an upload, or why it is refused.
    public static func validate(_ bytes: some Collection<UInt8>) throws(ContentError) -> ImageKind {
        guard bytes.count <= maximumBytes else { throw .imageTooLarge(bytes: bytes.count) }
        guard let kind = detect(bytes) else { throw .unsupportedImage }
        return kind
    }
}
