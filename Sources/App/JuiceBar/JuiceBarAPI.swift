import Foundation
import Hummingbird
import JuiceBar
import Storage

/// The juice bar's JSON API: menu, stock, orders, stock edits.
struct JuiceBarAPI {
    let juiceBar: JuiceBarService
    let idempotent: IdempotentRequests

    struct OrderRequest: Decodable {
        let juice: String
        /// Queue the order for pickup instead of making it on the spot.
        let pickup: Bool?
    }

    struct StatusRequest: Decodable { let status: OrderStatus }
    struct StockEdit: Decodable { let count: Int }
    struct LevelEdit: Decodable { let level: Int }

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.get("menu") { _, _ in Response.json(MenuAnswer(menu: juiceBar.menu, stock: juiceBar.stock.stock)) }
        api.get("stock") { _, _ in Response.json(juiceBar.stock.stock) }
        api.get("orders") { request, _ in
            Response.json(try await juiceBar.orders(limit: try limit(request)))
        }
        api.post("orders") { request, context in
            try await idempotent.handle(request, context: context) { request, context in
                let body = try await request.decodeJSON(OrderRequest.self)
                let receipt = try await juiceBar.order(JuiceID(body.juice), actor: context.actor, member: context.account?.id,
                                                       pickup: body.pickup ?? false)
                return Response(status: .created, headers: [.contentType: "application/json; charset=utf-8"],
                                body: .init(byteBuffer: OrderAnswer(receipt).json))
            }
        }
        api.get("orders/:id") { _, context in
            Response.json(try await requireOrder(context))
        }
        api.post("orders/:id/status") { request, context in
            let staff = try context.requireStaff()
            let id = try orderID(context)
            let asked = try await request.decodeJSON(StatusRequest.self)
            return Response.json(try await juiceBar.move(order: id, to: asked.status, actor: "staff:\(staff.username)"))
        }
        api.post("orders/:id/cancel") { _, context in
            guard let account = context.account else { throw APIError.unauthorized }
            let canceller: Canceller = account.isStaff ? .staff : .member(account.id)
            let receipt = try await juiceBar.cancel(order: try orderID(context), by: canceller, actor: context.actor)
            return Response.json(receipt.order)
        }
        api.get("queue") { _, _ in
            let queue = try await juiceBar.readQueue()
            let now = Date()
            return Response.json(queue.map { QueueEntry($0, now: now) })
        }
        api.get("queue/wait") { _, _ in Response.json(try await juiceBar.wait(in: try await juiceBar.readQueue())) }
        api.get("stock/low") { _, _ in
            Response.json(juiceBar.lowStock.map { StockLevelAnswer($0.fruit, count: $0.count) })
        }
        api.put("stock/:fruit/level") { request, context in
            let staff = try context.requireStaff()
            let fruit = try knownFruit(context)
            let edit = try await request.decodeJSON(LevelEdit.self)
            let set = try await juiceBar.setLevel(fruit, to: edit.level, actor: "staff:\(staff.username)")
            return Response.json(StockLevelAnswer(set, count: juiceBar.stock.stock[fruit]))
        }
        api.put("stock/:fruit") { request, context in
            let staff = try context.requireStaff()
            let fruit = try knownFruit(context)
            let edit = try await request.decodeJSON(StockEdit.self)
            let snapshot = try await juiceBar.setStock(fruit, to: edit.count, actor: "staff:\(staff.username)")
            return Response.json(StockEditAnswer(fruit: fruit, snapshot: snapshot))
        }
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

    private func requireOrder(_ context: ShopRequestContext) async throws -> Order {
        let id = try orderID(context)
        guard let order = try await juiceBar.order(id: id) else { throw OrderError.unknownOrder(id) }
        return order
    }
}
