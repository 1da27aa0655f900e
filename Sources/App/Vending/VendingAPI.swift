import Foundation
import Hummingbird
import Storage
import VendingMachine
import JuiceBar

/// The vending machine's JSON API.
struct VendingAPI {
    let vending: VendingService
    let idempotent: IdempotentRequests

    struct MoneyRequest: Decodable { let amount: Int }
    struct PurchaseRequest: Decodable { let product: String }
    struct RestockRequest: Decodable {
        let product: String
        let count: Int
        let manufactured: String?
    }

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        let group = api.group("vending")
        group.get { _, _ in Response.json(VendingAnswer(try await vending.state())) }
        group.post("money") { request, context in
            try await idempotent.handle(request, context: context) { request, context in
                let money = try await request.decodeJSON(MoneyRequest.self)
                return Response.json(VendingAnswer(try await vending.insert(money.amount, actor: context.actor)))
            }
        }
        group.get("purchasable") { _, _ in
            Response.json(try await vending.purchasable().map(VendingAnswer.product))
        }
        group.post("purchases") { request, context in
            try await idempotent.handle(request, context: context) { request, context in
                let purchase = try await request.decodeJSON(PurchaseRequest.self)
                let receipt = try await vending.purchase(purchase.product, actor: context.actor)
                return Response.json(PurchaseAnswer(receipt), status: .created)
            }
        }
        group.post("change") { _, context in
            Response.json(ChangeAnswer(try await vending.returnChange(actor: context.actor)))
        }
        group.post("stock") { request, context in
            let staff = try context.requireStaff()
            let restock = try await request.decodeJSON(RestockRequest.self)
            let manufactured = try restock.manufactured.map(Self.parseDay)
            return Response.json(VendingAnswer(try await vending.restock(
                restock.product, count: restock.count, manufactured: manufactured, actor: "staff:\(staff.username)")))
        }
        group.get("history") { request, _ in Response.json(try await vending.history(limit: try limit(request))) }
        group.get("expired") { _, _ in Response.json(try await vending.expiredItems()) }
        group.get("hot") { _, _ in
            Response.json(try await vending.state().products.filter(\.product.isHot).map(VendingAnswer.product))
        }
        group.get("sales") { _, _ in Response.json(try await vending.sales()) }
    }

    static func parseDay(_ text: String) throws -> Date {
        guard let date = ShopCalendar().day(text) else {
            throw APIError(.unprocessableContent, "invalid_date", .invalidDate, ["text": .text(text)])
        }
        return date
    }
}

/// The most rows one list answer gives.
let maximumLimit = 10_000

/// `?limit=N`, a whole number from 1 to `maximumLimit`, when given.
func limit(_ request: Request) throws -> Int? {
    guard let text = request.uri.queryParameters["limit"] else { return nil }
    guard let limit = Int(String(text)), (1...maximumLimit).contains(limit) else {
        throw APIError(.badRequest, "invalid_limit", .invalidLimit, ["max": .number(maximumLimit)])
    }
    return limit
}
