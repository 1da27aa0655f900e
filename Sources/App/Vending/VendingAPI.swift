import Foundation
import Hummingbird
import ShopBasics
import Storage
import VendingMachine
import JuiceBar

/// The vending machine's JSON API.
struct VendingAPI {
    let vending: VendingService
    let idempotent: IdempotentRequests
    /// The shop's calendar at each request: a manufacturing day is the shop's, whatever the server's zone.
    let calendar: @Sendable () -> ShopCalendar

    struct MoneyRequest: Decodable { let amount: Int }
    struct PurchaseRequest: Decodable { let product: String }
    struct RestockRequest: Decodable {
        let product: String
        let count: Int
        let manufactured: String?
    }

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.group("vending")
            .get(use: state)
            .get("purchasable", use: purchasable)
            .post("money", use: insertMoney)
            .post("purchases", use: purchase)
            .post("change", use: returnChange)
            .get("history", use: history)
            .get("expired", use: expired)
            .get("hot", use: hot)
            .get("sales", use: sales)
        api.group("vending").add(middleware: SignInRequired.staffAPI)
            .post("stock", use: restock)
    }

    @Sendable func state(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(VendingAnswer(try await vending.state()))
    }

    /// Puts money in, once per `Idempotency-Key`.
    @Sendable func insertMoney(_ request: Request, context: ShopRequestContext) async throws -> Response {
        try await idempotent.handle(request, context: context, answering: { StoredAnswer.json(VendingAnswer.json($0)) }) {
            request, context, key in
            let money = try await request.decodeJSON(MoneyRequest.self)
            return try await vending.insert(money.amount, actor: context.actor, key: key)
        }
    }

    @Sendable func purchasable(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(try await vending.purchasable().map(VendingAnswer.product))
    }

    /// Buys a product with the balance, once per `Idempotency-Key`.
    @Sendable func purchase(_ request: Request, context: ShopRequestContext) async throws -> Response {
        try await idempotent.handle(request, context: context,
                                    answering: { StoredAnswer.json(PurchaseAnswer.json($0), status: .created) }) {
            request, context, key in
            let purchase = try await request.decodeJSON(PurchaseRequest.self)
            return try await vending.purchase(purchase.product, actor: context.actor, key: key)
        }
    }

    @Sendable func returnChange(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(ChangeAnswer(try await vending.returnChange(actor: context.actor)))
    }

    /// Staff put products in, with the day they were made (today when not given).
    @Sendable func restock(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let restock = try await request.decodeJSON(RestockRequest.self)
        let manufactured = try restock.manufactured.map(parseDay)
        return Response.json(VendingAnswer(try await vending.restock(
            restock.product, count: restock.count, manufactured: manufactured, actor: context.actor)))
    }

    @Sendable func history(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(try await vending.history(limit: try request.listLimit()))
    }

    @Sendable func expired(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(try await vending.expiredItems())
    }

    @Sendable func hot(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(try await vending.state().products.filter(\.product.isHot).map(VendingAnswer.product))
    }

    @Sendable func sales(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(try await vending.sales())
    }

    private func parseDay(_ text: String) throws -> Date {
        guard let date = calendar().day(text) else {
            throw APIError(.unprocessableContent, "invalid_date", .invalidDate, ["text": .text(text)])
        }
        return date
    }
}
