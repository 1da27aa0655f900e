import Foundation
import Hummingbird
import JuiceBar
import Storage

/// The juice bar's JSON API: menu, stock, orders, stock edits.
struct JuiceBarAPI {
    let juiceBar: JuiceBarService
    let idempotent: IdempotentRequests

    /// An order: a cart of `lines`, or one cup of `juice` with its default options (the body
    /// from before carts).
    struct OrderBody: Decodable {
        struct Line: Decodable {
            let juice: String
            let quantity: Int?
            let options: [String: [String]]?
        }

        let juice: String?
        let lines: [Line]?
        /// Queue the order for pickup instead of making it on the spot.
        let pickup: Bool?
        let expectedTotal: Int?
        /// Paid at the counter with the order (staff only); none: paid later.
        let payment: PaymentRequest?

        /// The order asked for, linked to `member`.
        func request(member: Int64?) throws -> JuiceBar.OrderRequest {
            let cart: [CartLine]
            switch (juice, lines) {
            case (let juice?, nil): cart = [CartLine(juice: JuiceID(juice))]
            case (nil, let lines?):
                cart = lines.map { line in
                    CartLine(juice: JuiceID(line.juice), quantity: line.quantity ?? 1,
                             options: Dictionary(uniqueKeysWithValues: (line.options ?? [:]).map { group, options in
                                 (OptionGroupID(group), options.map { OptionID($0) })
                             }))
                }
            // One of the two: a body with both (or neither) says no order a client could mean.
            default: throw APIError(.badRequest, "invalid_body", .missingField, ["field": .text("lines")])
            }
            return JuiceBar.OrderRequest(lines: cart, member: member, pickup: pickup ?? false,
                                         expectedTotal: expectedTotal, payment: payment)
        }
    }

    struct StatusRequest: Decodable { let status: OrderStatus }
    struct StockEdit: Decodable { let count: Int }
    struct LevelEdit: Decodable { let level: Int }

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.get("menu", use: menu)
        api.group("orders")
            .get(use: orders)
            .post(use: order)
            .get(":id", use: findOrder)
            .post(":id/cancel", use: cancelOrder)
            .post(":id/payment", use: payOrder)
        api.group("queue")
            .get(use: queue)
            .get("wait", use: wait)
        api.group("stock")
            .get(use: stock)
            .get("low", use: lowStock)
        api.group().add(middleware: SignInRequired.staffAPI)
            .post("orders/:id/status", use: moveOrder)
            .put("stock/:fruit", use: setStock)
            .put("stock/:fruit/level", use: setLevel)
    }

    @Sendable func menu(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(MenuAnswer(menu: juiceBar.menu, stock: juiceBar.stock.stock))
    }

    @Sendable func stock(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(juiceBar.stock.stock)
    }

    @Sendable func orders(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(try await juiceBar.orders(limit: try request.listLimit()))
    }

    /// Orders a juice, once per `Idempotency-Key`.
    @Sendable func order(_ request: Request, context: ShopRequestContext) async throws -> Response {
        try await idempotent.handle(request, context: context, answering: Self.ordered) { request, context, key in
            let body = try await request.decodeJSON(OrderBody.self)
            // Money is taken at the counter: a member's app pays there, or ahead with Toss.
            if body.payment != nil { _ = try context.requireStaff() }
            return try await juiceBar.order(try body.request(member: context.account?.id), actor: context.actor, key: key)
        }
    }

    /// An order's answer: 201 with the order and the stock it left.
    @Sendable static func ordered(_ receipt: OrderReceipt) -> StoredAnswer {
        StoredAnswer.json(OrderAnswer(receipt).json, status: .created)
    }

    @Sendable func findOrder(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let id = try orderID(context)
        guard let order = try await juiceBar.order(id: id) else { throw OrderError.unknownOrder(id) }
        return Response.json(order)
    }

    /// Staff move an order along the queue (`making`, `ready`, `pickedUp`), once per `Idempotency-Key`.
    @Sendable func moveOrder(_ request: Request, context: ShopRequestContext) async throws -> Response {
        try await idempotent.handle(request, context: context, answering: { StoredAnswer.json($0) }) { request, context, key in
            let id = try orderID(context)
            let asked = try await request.decodeJSON(StatusRequest.self)
            return try await juiceBar.move(order: id, to: asked.status, actor: context.actor, key: key)
        }
    }

    /// Staff take the payment of an order accepted unpaid, once per `Idempotency-Key`.
    @Sendable func payOrder(_ request: Request, context: ShopRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        return try await idempotent.handle(request, context: context, answering: { StoredAnswer.json($0) }) { request, context, key in
            let payment = try await request.decodeJSON(PaymentRequest.self)
            return try await juiceBar.pay(order: try orderID(context), with: payment, actor: context.actor, key: key)
        }
    }

    /// Staff cancel any order still queued; a member only their own. Once per `Idempotency-Key`.
    @Sendable func cancelOrder(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let account = try context.requireAccount()
        let canceller: Canceller = account.isStaff ? .staff : .member(account.id)
        return try await idempotent.handle(request, context: context, answering: { StoredAnswer.json($0.order) }) { _, context, key in
            try await juiceBar.cancel(order: try orderID(context), by: canceller, actor: context.actor, key: key)
        }
    }

    @Sendable func queue(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let queue = try await juiceBar.readQueue()
        let now = Date()
        return Response.json(queue.map { QueueEntry($0, now: now) })
    }

    @Sendable func wait(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(try await juiceBar.wait(in: try await juiceBar.readQueue()))
    }

    @Sendable func lowStock(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(juiceBar.lowStock.map { StockLevelAnswer($0.fruit, count: $0.count) })
    }

    /// Staff set the count at or below which a fruit is low.
    @Sendable func setLevel(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let fruit = try knownFruit(context)
        let edit = try await request.decodeJSON(LevelEdit.self)
        let set = try await juiceBar.setLevel(fruit, to: edit.level, actor: context.actor)
        return Response.json(StockLevelAnswer(set, count: juiceBar.stock.stock[fruit]))
    }

    /// Staff set how many of a fruit the shop has.
    @Sendable func setStock(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let fruit = try knownFruit(context)
        let edit = try await request.decodeJSON(StockEdit.self)
        let snapshot = try await juiceBar.setStock(fruit, to: edit.count, actor: context.actor)
        return Response.json(StockEditAnswer(fruit: fruit, snapshot: snapshot))
    }

    /// The fruit the path names, which the shop must keep.
    private func knownFruit(_ context: ShopRequestContext) throws -> FruitID {
        let fruit = FruitID(try context.parameters.require("fruit"))
        guard juiceBar.menu.fruit(fruit) != nil else {
            throw APIError(.notFound, "not_found", JuiceBarError.unknownFruit(fruit.rawValue).message)
        }
        return fruit
    }

    /// The order the path names; an id that is no number names no order.
    private func orderID(_ context: ShopRequestContext) throws -> Int64 {
        let text = try context.parameters.require("id")
        guard let id = Int64(text) else { throw APIError(.notFound, "not_found", Message(.unknownOrder, ["id": .text(text)])) }
        return id
    }
}
