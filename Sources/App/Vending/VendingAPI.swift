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

    struct PurchaseBody: Encodable {
        /// What came out, with its dates: in Korean, and in each language by code (as `name`, `names`).
        let description: String
        let descriptions: [String: String]
        let balance: Int
        let sale: Sale
        let item: Item
        let machine: VendingBody
    }

    struct ChangeBody: Encodable {
        let returned: Int
        let units: [String: Int]
        let balance: Int
    }

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        let group = api.group("vending")
        group.get { _, _ in Response.json(VendingBody(try await vending.state())) }
        group.post("money") { request, context in
            try await idempotent.handle(request, context: context) { request, context in
                let money = try await request.decodeJSON(MoneyRequest.self)
                return Response.json(VendingBody(try await vending.insert(money.amount, actor: context.actor)))
            }
        }
        group.get("purchasable") { _, _ in
            Response.json(try await vending.purchasable().map(VendingBody.product))
        }
        group.post("purchases") { request, context in
            try await idempotent.handle(request, context: context) { request, context in
                let purchase = try await request.decodeJSON(PurchaseRequest.self)
                let receipt = try await vending.purchase(purchase.product, actor: context.actor)
                return Response.json(
                    PurchaseBody(description: ProductDescription.of(receipt.product, item: receipt.item, in: .ko),
                                 descriptions: ProductDescription.inEveryLanguage(receipt.product, item: receipt.item),
                                 balance: receipt.state.money.balance, sale: receipt.sale,
                                 item: receipt.item, machine: VendingBody(receipt.state)),
                    status: .created)
            }
        }
        group.post("change") { _, context in
            let receipt = try await vending.returnChange(actor: context.actor)
            return Response.json(ChangeBody(
                returned: receipt.change.returned,
                units: Dictionary(uniqueKeysWithValues: receipt.change.units.map { (String($0.key), $0.value) }),
                balance: receipt.state.money.balance))
        }
        group.post("stock") { request, context in
            let staff = try context.requireStaff()
            let restock = try await request.decodeJSON(RestockRequest.self)
            let manufactured = try restock.manufactured.map(Self.parseDay)
            return Response.json(VendingBody(try await vending.restock(
                restock.product, count: restock.count, manufactured: manufactured, actor: "staff:\(staff.username)")))
        }
        group.get("history") { request, _ in Response.json(try await vending.history(limit: try limit(request))) }
        group.get("expired") { _, _ in Response.json(try await vending.expiredItems()) }
        group.get("hot") { _, _ in
            Response.json(try await vending.state().products.filter(\.product.isHot).map(VendingBody.product))
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
