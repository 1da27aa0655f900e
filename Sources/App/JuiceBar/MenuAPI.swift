import Foundation
import Hummingbird
import JuiceBar
import ShopBasics

/// Staff's menu management (메뉴 관리) in the JSON API: add a juice, change its name, price,
/// recipe, option groups or 품절, retire it, and put the shop's option groups.
struct MenuAPI {
    let juiceBar: JuiceBarService

    struct NewJuice: Decodable {
        let id: String
        let name: LocalizedName
        let price: Int
        let recipe: [Ingredient]
        let optionGroups: [OptionGroupID]?
    }

    struct GroupBody: Decodable {
        let name: LocalizedName
        let min: Int
        let max: Int
        let options: [MenuOption]
    }

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.group("menu").add(middleware: SignInRequired.staffAPI)
            .post("juices", use: addJuice)
            .patch("juices/:id", use: editJuice)
            .delete("juices/:id", use: retireJuice)
            .put("option-groups/:id", use: putOptionGroup)
    }

    @Sendable func addJuice(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(NewJuice.self)
        let juice = Juice(id: JuiceID(body.id), name: body.name, recipe: body.recipe, price: body.price,
                          optionGroups: body.optionGroups ?? [])
        let menu = try await juiceBar.changeMenu(.addJuice(juice), actor: context.actor)
        return Response.json(answer(juice.id, in: menu), status: .created)
    }

    @Sendable func editJuice(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let id = try juiceID(context)
        let edit = try await request.decodeJSON(JuiceEdit.self)
        return Response.json(answer(id, in: try await juiceBar.changeMenu(.editJuice(id, edit), actor: context.actor)))
    }

    /// Takes a juice off the menu for good; its past orders keep its name and price.
    @Sendable func retireJuice(_ request: Request, context: ShopRequestContext) async throws -> Response {
        _ = try await juiceBar.changeMenu(.retireJuice(try juiceID(context)), actor: context.actor)
        return Response(status: .noContent)
    }

    @Sendable func putOptionGroup(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let id = OptionGroupID(try context.parameters.require("id"))
        let body = try await request.decodeJSON(GroupBody.self)
        let group = MenuOptionGroup(id: id, name: body.name, min: body.min, max: body.max, options: body.options)
        _ = try await juiceBar.changeMenu(.putOptionGroup(group), actor: context.actor)
        return Response.json(group)
    }

    /// The juice the path names, which must be on the menu.
    private func juiceID(_ context: ShopRequestContext) throws -> JuiceID {
        try juiceBar.menu.juiceOnMenu(JuiceID(try context.parameters.require("id"))).id
    }

    private func answer(_ id: JuiceID, in menu: Menu) -> MenuAnswer.Item {
        MenuAnswer.Item(menu.juice(id)!, in: menu, stock: juiceBar.stock.stock)
    }
}

extension Menu {
    /// The juice `id` names while it is on the menu: to staff's edits a retired juice is as unknown
    /// as one never added.
    func juiceOnMenu(_ id: JuiceID) throws(SaleError) -> Juice {
        guard let juice = juice(id), !juice.retired else { throw .unknownJuice(id) }
        return juice
    }
}
