import Hummingbird
import JuiceBar
import ShopBasics

/// 메뉴 관리 for staff as a page, `/menu`, and the forms it posts: add a juice, save a juice's price
/// and option groups, mark it 품절 or back on sale, retire it. Each write is `MenuAPI`'s, through
/// `JuiceBarService.changeMenu`; a change done goes back to `/menu` (303) saying so, a refused one
/// draws the page again saying why, in the form's language, with nothing changed.
struct MenuPages {
    let juiceBar: JuiceBarService

    /// A form with the shop's option groups as checkboxes (`groups[]=size`).
    protocol GroupBoxes {
        var groups: [String]? { get }
    }

    /// `POST /menu/juices`.
    struct NewJuiceForm: PageForm, GroupBoxes {
        let id: String
        let nameKo: String
        let nameEn: String
        let price: String
        /// Each fruit's amount as typed, by fruit id (`recipe[kiwi]=3`).
        let recipe: [String: String]?
        let groups: [String]?
        let lang: String?

        /// The juice the form describes. A fruit left blank or at 0 is not in the recipe; the menu's
        /// own checks (`Menu.validateNew`) refuse the rest when it is added.
        func juice(on menu: Menu) throws -> Juice {
            let typed = (recipe ?? [:]).filter { !$0.value.isEmpty }
            // The menu's fruits in its order, then any it lacks, which the menu refuses by name.
            let fruits = menu.fruits.map(\.id.rawValue) + typed.keys.filter { menu.fruit(FruitID($0)) == nil }.sorted()
            let ingredients = try fruits.compactMap { fruit throws(JuiceBarError) -> Ingredient? in
                guard let text = typed[fruit] else { return nil }
                let amount = try wholeNumber(text)
                return amount == 0 ? nil : Ingredient(fruit: FruitID(fruit), amount: amount)
            }
            return Juice(id: JuiceID(id), name: LocalizedName(ko: nameKo, en: nameEn), recipe: ingredients,
                         price: try wholeNumber(price), optionGroups: optionGroups)
        }
    }

    /// `POST /menu/juices/{id}`: the price and the option groups together, as one form shows them.
    struct JuiceForm: PageForm, GroupBoxes {
        let price: String
        let groups: [String]?
        let lang: String?
    }

    /// `POST /menu/juices/{id}/sold-out`: what the juice is to become.
    struct SoldOutForm: PageForm {
        let soldOut: Bool
        let lang: String?
    }

    /// `POST /menu/juices/{id}/retire`: nothing but the page's language.
    struct RetireForm: PageForm {
        let lang: String?
    }

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.group("menu").add(middleware: SignInRequired.staffPages)
            .get(use: menuPage)
            .post("juices", use: addJuice)
            .post("juices/:id", use: saveJuice)
            .post("juices/:id/sold-out", use: setSoldOut)
            .post("juices/:id/retire", use: retireJuice)
    }

    /// `?done=…&juice=…` says what the change just made came to.
    @Sendable func menuPage(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let menu = juiceBar.menu
        let done = request.uri.queryParameters["done"].flatMap { MenuNotice(rawValue: String($0)) }
        let juice = request.uri.queryParameters["juice"].flatMap { menu.juice(JuiceID(String($0))) }
        let notice = done.flatMap { done in
            juice.flatMap { Words.of(context.language).menu.notices[done]?.filling(["juice": $0.name[context.language]]) }
        }
        return MenuPage(menu: menu, account: try context.requireStaff(), language: context.language, request: request,
                        notice: notice).render()
    }

    @Sendable func addJuice(_ request: Request, context: ShopRequestContext) async throws -> Response {
        try await change(NewJuiceForm.self, request, context) { form in
            let juice = try form.juice(on: juiceBar.menu)
            _ = try await juiceBar.changeMenu(.addJuice(juice), actor: context.actor)
            return (.added, juice.id)
        }
    }

    @Sendable func saveJuice(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let id = JuiceID(try context.parameters.require("id"))
        return try await change(JuiceForm.self, request, context, about: id) { form in
            let edit = JuiceEdit(price: try wholeNumber(form.price), optionGroups: form.optionGroups)
            return (.saved, try await commit(.editJuice(id, edit), to: id, actor: context.actor))
        }
    }

    @Sendable func setSoldOut(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let id = JuiceID(try context.parameters.require("id"))
        return try await change(SoldOutForm.self, request, context, about: id) { form in
            let write = StockWrite.editJuice(id, JuiceEdit(soldOut: form.soldOut))
            return (form.soldOut ? .soldOut : .onSale, try await commit(write, to: id, actor: context.actor))
        }
    }

    @Sendable func retireJuice(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let id = JuiceID(try context.parameters.require("id"))
        return try await change(RetireForm.self, request, context, about: id) { _ in
            (.retired, try await commit(.retireJuice(id), to: id, actor: context.actor))
        }
    }

    /// Makes `write` to the juice `id`, which must be on the menu (a retired one is unknown here, as
    /// in the API).
    private func commit(_ write: StockWrite, to id: JuiceID, actor: String) async throws -> JuiceID {
        _ = try juiceBar.menu.juiceOnMenu(id)
        _ = try await juiceBar.changeMenu(write, actor: actor)
        return id
    }

    /// Reads the posted form and makes the change: `/menu` saying what it came to, or the page
    /// again saying why not (about the juice `about`, when the form is one juice's).
    private func change<Form: PageForm>(
        _ type: Form.Type, _ request: Request, _ context: ShopRequestContext, about juice: JuiceID? = nil,
        _ make: (Form) async throws -> (MenuNotice, JuiceID)
    ) async throws -> Response {
        let account = try context.requireStaff()
        let form: Form
        let language: Language
        switch await request.pageForm(type, language: context.language, unreadable: Message(.badRequest)) {
        case .refused(let message, let status, let language):
            return MenuPage(menu: juiceBar.menu, account: account, language: language, request: request, message: message)
                .render(status: status)
        case .form(let posted, let postedIn):
            (form, language) = (posted, postedIn)
        }
        do {
            let (notice, id) = try await make(form)
            let page = "/menu?done=\(notice.rawValue)&juice=\(id.rawValue)&lang=\(language.rawValue)"
            return Response.redirect(to: page, type: .normal)  // 303 See Other: the page again, by GET
        } catch {
            let refusal = APIError(error)
            // The server's own trouble (storage, a bug) is the error middleware's to answer.
            guard refusal.status.code < 500 else { throw error }
            let menu = juiceBar.menu
            var message = Words.of(language).say(refusal.message, menu: menu)
            if let name = juice.flatMap({ try? menu.juiceOnMenu($0).name[language] }) { message = "\(name): \(message)" }
            // A refused new juice comes back as typed, to be put right rather than typed again.
            return MenuPage(menu: menu, account: account, language: language, request: request, message: message,
                            typed: form as? NewJuiceForm).render(status: refusal.status)
        }
    }
}

extension MenuPages.GroupBoxes {
    /// The groups ticked: a form with none ticked sends none.
    var optionGroups: [OptionGroupID] { (groups ?? []).map { OptionGroupID($0) } }
}
