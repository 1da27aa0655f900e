import Foundation
import Hummingbird
import JuiceBar
import Membership
import MultipartKit
import ShopBasics
import Storage

/// Members' API: sign-up, their orders and recommendation, What's New, events.
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
            (id, title, body, registeredAt) = (item.id, item.title, item.body, item.registeredAt)
            imageURL = ImageURL(item.imageID)
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
            (id, title, body, start, end) = (event.id, event.title, event.body, event.start, event.end)
            imageURL = ImageURL(event.imageID)
        }
    }

    struct RecommendationBody: Encodable {
        let juice: JuiceID?
        let name: LocalizedName?
    }

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.post("members", use: signUp)
        api.group("me")
            .get("orders", use: myOrders)
            .get("recommendation", use: myRecommendation)
        api.get("news", use: news)
        api.group("events")
            .get("current", use: currentEvent)
            .post(":id/hide-today", use: hideEventToday)
        api.group().add(middleware: SignInRequired.staffAPI)
            .post("news", use: postNews)
            .post("events", use: postEvent)
    }

    @Sendable func signUp(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let form = try await request.decodeJSON(SignUp.self)
        let account = try await accounts.signUp(
            username: form.username, password: form.password, name: form.name ?? form.username, role: .member,
            client: context.clientAddress)
        return Response.json(AccountAnswer(account), status: .created)
    }

    @Sendable func myOrders(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let account = try context.requireAccount()
        return Response.json(try await juiceBar.orders(member: account.id, limit: try request.listLimit()))
    }

    @Sendable func myRecommendation(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let account = try context.requireAccount()
        let juice = juiceBar.recommendation(fromOrders: try await juiceBar.orders(member: account.id, limit: nil))
        return Response.json(RecommendationBody(juice: juice?.id, name: juice?.name))
    }

    @Sendable func news(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(try await content.news(limit: try request.listLimit()).map(NewsBody.init))
    }

    @Sendable func postNews(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let form = try await request.decodeMultipart(NewsForm.self)
        let item = try await content.postNews(title: form.title, body: form.body ?? "", image: form.image.map { [UInt8]($0) })
        return Response.json(NewsBody(item), status: .created)
    }

    @Sendable func postEvent(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let form = try await request.decodeMultipart(EventForm.self)
        let event = try await content.postEvent(title: form.title, body: form.body ?? "", image: form.image.map { [UInt8]($0) },
                                                start: form.start, end: form.end)
        return Response.json(EventBody(event), status: .created)
    }

    /// The event on now, or 204 when there is none.
    @Sendable func currentEvent(_ request: Request, context: ShopRequestContext) async throws -> Response {
        guard let event = try await content.currentEvent() else { return Response(status: .noContent) }
        return Response.json(EventBody(event))
    }

    /// "Hide for today": the member's home shows this event again tomorrow.
    @Sendable func hideEventToday(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let account = try context.requireAccount()
        guard let id = context.parameters.get("id", as: Int64.self), try await content.event(id) != nil else {
            throw APIError.notFound(.noSuchEvent)
        }
        try await content.hideForToday(id, account: account)
        return Response(status: .noContent)
    }
}
