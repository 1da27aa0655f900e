import Foundation
import Hummingbird
import JuiceBar
import Membership
import MultipartKit
import Storage

/// Members' API: sign-up, their orders and recommendation, What's New, events, images.
struct MemberAPI {
    let accounts: AccountService
    let content: ContentService
    let juiceBar: JuiceBarService

    struct SignUp: Decodable {
        let username: String
        let password: String
        let name: String?
    }

    struct NewsForm: Decodable {
        let title: String
        let body: String?
        let image: Data?
    }

    struct EventForm: Decodable {
        let title: String
        let body: String?
        let image: Data?
        let start: String
        let end: String
    }

    /// An image's address, written as `null` when there is none, so clients always find the field
    /// (a synthesized `Optional` would leave the key out).
    struct ImageURL: Encodable {
        let path: String?

        init(_ imageID: Int64?) { path = imageID.map(imagePath) }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let path { try container.encode(path) } else { try container.encodeNil() }
        }
    }

    struct NewsBody: Encodable {
        let id: Int64
        let title: String
        let body: String
        let imageURL: ImageURL
        let registeredAt: Date

        init(_ item: NewsItem) {
            id = item.id
            title = item.title
            body = item.body
            imageURL = ImageURL(item.imageID)
            registeredAt = item.registeredAt
        }
    }

    struct EventBody: Encodable {
        let id: Int64
        let title: String
        let body: String
        let imageURL: ImageURL
        let start: Date
        let end: Date

        init(_ event: ShopEvent) {
            id = event.id
            title = event.title
            body = event.body
            imageURL = ImageURL(event.imageID)
            start = event.start
            end = event.end
        }
    }

    struct RecommendationBody: Encodable {
        let juice: JuiceID?
        let name: LocalizedName?
    }

    func addRoutes(api: RouterGroup<ShopRequestContext>, router: Router<ShopRequestContext>) {
        api.post("members") { request, context in
            let form = try await request.decodeJSON(SignUp.self)
            let account = try await accounts.signUp(
                username: form.username, password: form.password, name: form.name ?? form.username, role: .member,
                client: context.clientAddress)
            return Response.json(SessionRoutes.AccountBody(account), status: .created)
        }
        api.get("me/orders") { request, context in
            guard let account = context.account else { throw APIError.unauthorized }
            return Response.json(try await juiceBar.orders(member: account.id, limit: try limit(request)))
        }
        api.get("me/recommendation") { _, context in
            guard let account = context.account else { throw APIError.unauthorized }
            let juice = juiceBar.recommendation(fromOrders: try await juiceBar.orders(member: account.id, limit: nil))
            return Response.json(RecommendationBody(juice: juice?.id, name: juice?.name))
        }
        api.get("news") { request, _ in
            Response.json(try await content.news(limit: try limit(request)).map(NewsBody.init))
        }
        api.post("news") { request, context in
            _ = try context.requireStaff()
            let form = try await request.decodeMultipart(NewsForm.self)
            let item = try await content.postNews(title: form.title, body: form.body ?? "", image: form.image.map { [UInt8]($0) })
            return Response.json(NewsBody(item), status: .created)
        }
        api.post("events") { request, context in
            _ = try context.requireStaff()
            let form = try await request.decodeMultipart(EventForm.self)
            let event = try await content.postEvent(title: form.title, body: form.body ?? "", image: form.image.map { [UInt8]($0) },
                                                    start: form.start, end: form.end)
            return Response.json(EventBody(event), status: .created)
        }
        api.get("events/current") { _, _ in
            guard let event = try await content.currentEvent() else { return Response(status: .noContent) }
            return Response.json(EventBody(event))
        }
        api.post("events/:id/hide-today") { _, context in
            guard let account = context.account else { throw APIError.unauthorized }
            guard let id = context.parameters.get("id", as: Int64.self), try await content.event(id) != nil else {
                throw APIError.notFound(.noSuchEvent)
            }
            try await content.hideForToday(id, account: account)
            return Response(status: .noContent)
        }
        router.get("images/:id") { request, context in
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
                          .cacheControl: "public, max-age=31536000, immutable", .init("X-Content-Type-Options")!: "nosniff"],
                body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
        }
    }

    /// `If-None-Match`: `*`, or a list of tags compared weakly (RFC 9110 §13.1.2).
    static func matches(_ condition: String, etag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}

func imagePath(_ id: Int64) -> String { "/images/\(id)" }
