import Hummingbird
import JuiceBar
import Storage

/// The juice bar's JSON API: menu, stock, orders, stock edits.
struct JuiceBarAPI {
    let juiceBar: JuiceBarService

    struct MenuItem: Encodable {
        let id: JuiceID
        let name: LocalizedName
        let recipe: [Ingredient]
        let makeable: Int
    }

    struct MenuBody: Encodable {
        let fruits: [Fruit]
        let juices: [MenuItem]
    }

    struct OrderRequest: Decodable { let juice: String }
    struct OrderBody: Encodable {
        let order: Order
        let stock: Stock
        let version: Int64

        /// What `apiEncoder` would write, written directly (see `JSONText`).
        var json: ByteBuffer {
            var text = JSONText()
            text.beginObject()
            text.key("order")
            text.beginObject()
            text.key("actor"); text.string(order.actor)
            text.key("id"); text.integer(order.id)
            text.key("juice"); text.string(order.juice.rawValue)
            text.key("time"); text.date(order.time)
            text.endObject()
            text.key("stock")
            text.beginObject()
            for (fruit, count) in stock.counts.sorted(by: { $0.key < $1.key }) {
                text.key(fruit.rawValue); text.integer(count)
            }
            text.endObject()
            text.key("version"); text.integer(version)
            text.endObject()
            return text.buffer
        }
    }

    struct StockEdit: Decodable { let count: Int }
    struct StockEditBody: Encodable {
        let fruit: FruitID
        let count: Int
        let stock: Stock
        let version: Int64
    }

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.get("menu") { _, _ in menuBody() }
        api.get("stock") { _, _ in Response.json(juiceBar.stock.stock) }
        api.get("orders") { request, _ in
            Response.json(try await juiceBar.orders(limit: try limit(request)))
        }
        api.post("orders") { request, context in
            let body = try await request.decodeJSON(OrderRequest.self)
            let receipt = try await juiceBar.order(JuiceID(body.juice), actor: context.actor, member: context.account?.id)
            let answer = OrderBody(order: receipt.order, stock: receipt.stock.stock, version: receipt.stock.version)
            return Response(status: .created, headers: [.contentType: "application/json; charset=utf-8"],
                            body: .init(byteBuffer: answer.json))
        }
        api.put("stock/:fruit") { request, context in
            let staff = try context.requireStaff()
            let fruit = FruitID(try context.parameters.require("fruit"))
            guard juiceBar.menu.fruit(fruit) != nil else {
                throw APIError(.notFound, "not_found", JuiceBarError.unknownFruit(fruit.rawValue).message)
            }
            let edit = try await request.decodeJSON(StockEdit.self)
            let snapshot = try await juiceBar.setStock(fruit, to: edit.count, actor: "staff:\(staff.username)")
            return Response.json(StockEditBody(fruit: fruit, count: snapshot.stock[fruit], stock: snapshot.stock,
                                               version: snapshot.version))
        }
    }

    private func menuBody() -> Response {
        let menu = juiceBar.menu
        let stock = juiceBar.stock.stock
        return Response.json(MenuBody(
            fruits: menu.fruits,
            juices: menu.juices.map {
                MenuItem(id: $0.id, name: $0.name, recipe: $0.recipe, makeable: stock.makeableCount(of: $0))
            }))
    }
}
