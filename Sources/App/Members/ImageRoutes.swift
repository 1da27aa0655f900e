import Foundation
import Hummingbird
import Membership

/// `GET /images/{id}`: the images news and events show, kept forever by browsers.
struct ImageRoutes {
    let content: ContentService

    func addRoutes(to root: RouterGroup<ShopRequestContext>) {
        root.get("images/:id", use: image)
    }

    @Sendable func image(_ request: Request, context: ShopRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id", as: Int64.self), let image = try await content.image(id) else {
            throw APIError.notFound(.noSuchImage)
        }
        // An image never changes once stored, so its id is a strong validator.
        let etag = "\"image-\(image.id)\""
        if let condition = request.headers[.ifNoneMatch], Self.matches(condition, etag: etag) {
            return Response(status: .notModified, headers: [.eTag: etag])
        }
        return Response(
            status: .ok,
            headers: [.contentType: image.kind.rawValue, .eTag: etag,
                      .cacheControl: "public, max-age=31536000, immutable"],
            body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
    }

    /// `If-None-Match`: `*`, or a list of tags compared weakly (RFC 9110 §13.1.2).
    static func matches(_ condition: String, etag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}

/// Where an image is served.
func imagePath(_ id: Int64) -> String { "/images/\(id)" }
