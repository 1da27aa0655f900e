import Hummingbird
import JuiceBar
import Membership
import ShopBasics

/// 메뉴 관리 as staff see it (`menu.mustache`): each juice on the menu with its recipe, a form for
/// its price and option groups, one to mark it 품절 or back on sale and one to retire it; a form
/// that adds a juice; the juices retired; and the shop's option groups. Plain forms that post, so
/// the page works without its script, which only asks before a juice is retired.
struct MenuPage {
    let menu: Menu
    let account: Account
    let language: Language
    let request: Request
    /// What the last change came to (`?done=`).
    var notice: String? = nil
    /// Why the form just posted was refused.
    var message: String? = nil
    /// A refused new juice as it was typed.
    var typed: MenuPages.NewJuiceForm? = nil

    func render(status: HTTPResponse.Status = .ok) -> Response {
        let words = Words.of(language).menu
        let retired = menu.juices.filter(\.retired).map { $0.name[language] }
        return Templates.page(.menu, Model(
            header: PageHeader(.menu, title: words.title, account: account, language: language, request: request, path: "/menu"),
            words: words, common: .of(language), notice: notice, message: message,
            maximumPrice: Prices.range.upperBound, maximumAmount: StockLimits.recipeAmount.upperBound,
            juices: menu.onSale.map { JuiceRow($0, in: self, words: words) },
            newJuice: NewJuiceFields(typed, in: self),
            retired: retired, hasRetired: !retired.isEmpty,
            groups: menu.optionGroups.map { GroupLine($0, language: language, words: words) }), status: status)
    }

    /// The shop's option groups as a juice's checkboxes, those in `attached` ticked; `prefix` keeps
    /// each form's ids apart.
    func groupChoices(attached: [OptionGroupID], prefix: String) -> [GroupChoice] {
        menu.optionGroups.map { group in
            GroupChoice(id: group.id.rawValue, name: group.name[language], inputID: "\(prefix)-\(group.id.rawValue)",
                        checked: attached.contains(group.id))
        }
    }

    /// What `menu.mustache` shows.
    struct Model: PageModel {
        let header: PageHeader
        let words: MenuWords
        let common: CommonWords
        let notice: String?
        let message: String?
        let maximumPrice: Int
        let maximumAmount: Int
        let juices: [JuiceRow]
        let newJuice: NewJuiceFields
        /// The retired juices' names: off the menu, still in past orders.
        let retired: [String]
        let hasRetired: Bool
        let groups: [GroupLine]
    }

    /// A juice on the menu, 품절 or not, with its forms.
    struct JuiceRow {
        let id: String
        let name: String
        /// Its name in the page's other language.
        let otherName: String
        let recipe: String
        let price: Int
        let soldOut: Bool
        let groups: [GroupChoice]
        let retireQuestion: String

        init(_ juice: Juice, in page: MenuPage, words: MenuWords) {
            id = juice.id.rawValue
            name = juice.name[page.language]
            otherName = juice.name[page.language == .ko ? .en : .ko]
            recipe = page.menu.recipeLine(of: juice, in: page.language)
            price = juice.price
            soldOut = juice.soldOut
            groups = page.groupChoices(attached: juice.optionGroups, prefix: "group-\(id)")
            retireQuestion = words.retireQuestion.filling(["juice": name])
        }
    }

    /// One of the shop's option groups as a checkbox.
    struct GroupChoice {
        let id: String
        let name: String
        let inputID: String
        let checked: Bool
    }

    /// The form that adds a juice: blank, every option group ticked; or as typed when refused.
    struct NewJuiceFields {
        let id: String
        let nameKo: String
        let nameEn: String
        let price: String
        let recipe: [RecipeField]
        let groups: [GroupChoice]

        init(_ typed: MenuPages.NewJuiceForm?, in page: MenuPage) {
            id = typed?.id ?? ""
            nameKo = typed?.nameKo ?? ""
            nameEn = typed?.nameEn ?? ""
            price = typed?.price ?? ""
            recipe = page.menu.fruits.map { fruit in
                RecipeField(fruit: fruit.id.rawValue, emoji: fruit.emoji, name: fruit.name[page.language],
                            amount: typed?.recipe?[fruit.id.rawValue] ?? "")
            }
            let attached = typed?.optionGroups ?? page.menu.optionGroups.map(\.id)
            groups = page.groupChoices(attached: attached, prefix: "new-group")
        }
    }

    /// A fruit's amount in the new juice's recipe.
    struct RecipeField {
        let fruit: String
        let emoji: String
        let name: String
        let amount: String
    }

    /// An option group as the page lists it: `사이즈 · 1개 고르기 · 레귤러, 라지 +1,000원`.
    struct GroupLine {
        let name: String
        let choice: String
        let options: String

        init(_ group: MenuOptionGroup, language: Language, words: MenuWords) {
            name = group.name[language]
            choice = group.min == group.max
                ? words.groupExactly.filling(["count": String(group.min)])
                : words.groupChoice.filling(["min": String(group.min), "max": String(group.max)])
            options = group.options.map { option in
                option.name[language] + (option.price > 0 ? " +\(Won.format(option.price))" : "")
            }.joined(separator: ", ")
        }
    }
}
