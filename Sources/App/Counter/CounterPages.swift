import Hummingbird
import JuiceBar
import Membership
import ShopBasics

/// The counter screen (`/counter`, staff; 주문 받기): the menu as a grid of buttons with prices, a
/// juice's option groups in a dialog, the cart with its total, then payment in cash (the change
/// shown before confirming) or by card, and the order's number with its receipt. The server draws
/// the page, the menu and every group's choices; `counter.js` keeps the cart and sends it as one
/// order with the total it showed (`expectedTotal`), which the server prices again.
struct CounterPages {
    let juiceBar: JuiceBarService

    /// The notes a customer hands over most, as one-tap amounts received.
    static let quickCash = [10_000, 20_000, 50_000]

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.group().add(middleware: SignInRequired.staffPages)
            .get("counter", use: counter)
    }

    @Sendable func counter(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let language = context.language
        let words = Words.of(language)
        let menu = juiceBar.menu
        let data = PageData(
            words: words.counter, failed: words.common.failed, language: language, menu: menu,
            messages: Dictionary(uniqueKeysWithValues: [MessageKey.optionsRequired, .tooManyOptions, .badQuantity].map {
                ($0.rawValue, words.messages[$0] ?? $0.rawValue)
            }),
            quantity: Limits(Prices.quantity), maximumLines: Prices.lines.upperBound)
        return Templates.page(.counter, Model(
            header: PageHeader(.counter, title: words.common.counter, account: try context.requireStaff(), language: language,
                               request: request),
            words: words.counter, common: words.common,
            juices: menu.onSale.map { JuiceButton($0, language: language) },
            groups: menu.optionGroups.map { GroupFields($0, language: language, words: words) },
            quickCash: Self.quickCash.map { QuickCash(amount: $0, text: Won.format($0)) },
            maximumReceived: Prices.received.upperBound, noTotal: Won.format(0), pageData: scriptJSON(data)))
    }

    /// What `counter.js` needs: its words, the menu it prices the cart by (the shape the live `menu`
    /// event has, so a change is told apart), and the bounds the server holds a cart to.
    struct PageData: Encodable {
        let words: CounterWords
        let failed: String
        let language: Language
        let menu: Menu
        /// The server's own words for a group chosen wrong and a cart too big, by message key.
        let messages: [String: String]
        let quantity: Limits
        let maximumLines: Int
    }

    struct Limits: Encodable {
        let min: Int
        let max: Int

        init(_ range: ClosedRange<Int>) { (min, max) = (range.lowerBound, range.upperBound) }
    }

    /// What `counter.mustache` shows.
    struct Model: PageModel {
        let header: PageHeader
        let words: CounterWords
        let common: CommonWords
        let juices: [JuiceButton]
        let groups: [GroupFields]
        let quickCash: [QuickCash]
        let maximumReceived: Int
        /// The total of an empty cart, until the script draws the cart.
        let noTotal: String
        /// `PageData` as JSON made safe for a script block.
        let pageData: String
    }

    /// A juice's button in the grid: its name and price; off, and marked 품절, while sold out.
    struct JuiceButton {
        let id: String
        let name: String
        let priceText: String
        let soldOut: Bool

        init(_ juice: Juice, language: Language) {
            id = juice.id.rawValue
            name = juice.name[language]
            priceText = Won.format(juice.price)
            soldOut = juice.soldOut
        }
    }

    /// An option group as the options dialog asks it: radio buttons when a cup takes at most one
    /// (with a "none" choice when it may take none), checkboxes when it takes more; the dialog
    /// shows the groups of the juice tapped.
    struct GroupFields {
        let id: String
        let name: String
        /// How many to choose, said only where it is not plainly one.
        let hint: String?
        let noneChoice: Bool
        let options: [OptionField]

        init(_ group: MenuOptionGroup, language: Language, words: Words) {
            id = group.id.rawValue
            name = group.name[language]
            let single = group.max == 1
            hint = single && group.min == 1 ? nil : MenuPage.GroupLine(group, language: language, words: words.menu).choice
            noneChoice = single && group.min == 0
            options = group.options.map { option in
                OptionField(group: group.id.rawValue, id: option.id.rawValue, name: option.name[language],
                            type: single ? "radio" : "checkbox", extra: option.price > 0 ? " +\(Won.format(option.price))" : "")
            }
        }
    }

    struct OptionField {
        let group: String
        let id: String
        let name: String
        /// `radio` or `checkbox`.
        let type: String
        /// What the option adds to the price: ` +1,000원`, or nothing.
        let extra: String
    }

    struct QuickCash {
        let amount: Int
        let text: String
    }
}
