import Hummingbird
import JuiceBar
import Membership
import ShopBasics
import Storage

/// The seed's two screens: the order screen (`쥬스 주문`) and, as a modal over it, the stock
/// screen (`재고 수정`). Drawn from the menu data; every control carries its model id.
struct OrderPage {
    let menu: Menu
    let stock: StockSnapshot
    let account: Account?
    let language: Language
    let request: Request

    var strings: CommonWords { .of(language) }

    /// What the page script needs: words for its alerts, and juice names by id.
    struct PageData: Encodable {
        let strings: CommonWords
        let juiceNames: [String: String]
        let fruitNames: [String: String]
        let isStaff: Bool
        let isSignedIn: Bool
        let language: Language
        let version: Int64
        let maximumCount: Int
    }

    func render() -> Response {
        let data = PageData(
            strings: strings,
            juiceNames: menu.juiceNames(in: language),
            fruitNames: Dictionary(uniqueKeysWithValues: menu.fruits.map { ($0.id.rawValue, $0.name[language]) }),
            isStaff: account?.isStaff ?? false, isSignedIn: account != nil, language: language, version: stock.version,
            maximumCount: StockLimits.count.upperBound)
        return Templates.page(.order, Model(
            header: PageHeader(.order, title: strings.orderScreenTitle, account: account, language: language, request: request),
            strings: strings,
            maximumCount: StockLimits.count.upperBound,
            fruits: menu.fruits.map { fruit in
                let name = fruit.name[language]
                let count = stock.stock[fruit.id]
                return FruitRow(
                    id: fruit.id.rawValue, emoji: fruit.emoji, name: name, count: count,
                    isLow: fruit.isLow(count: count),
                    canRemove: count > StockLimits.count.lowerBound, canAdd: count < StockLimits.count.upperBound,
                    removeLabel: strings.removeLabel.filling(["fruit": name]),
                    addLabel: strings.addLabel.filling(["fruit": name]),
                    countLabel: strings.countLabel.filling(["fruit": name]))
            },
            juices: menu.onSale.map { JuiceButton($0, strings: strings, language: language) },
            pageData: scriptJSON(data)))
    }

    /// What `order.mustache` shows.
    struct Model: PageModel {
        let header: PageHeader
        let strings: CommonWords
        let maximumCount: Int
        let fruits: [FruitRow]
        let juices: [JuiceButton]
        /// `PageData` as JSON made safe for a script block.
        let pageData: String
    }

    struct FruitRow {
        let id: String
        let emoji: String
        let name: String
        let count: Int
        /// At or below its reorder level: marked `부족`.
        let isLow: Bool
        let canRemove: Bool
        let canAdd: Bool
        let removeLabel: String
        let addLabel: String
        let countLabel: String
    }

    /// A juice's order button, by the juice's id, with its price beside it; a 품절 juice's is off.
    struct JuiceButton {
        let juice: Juice
        let id: String
        let label: String
        let priceText: String

        init(_ juice: Juice, strings: CommonWords, language: Language) {
            self.juice = juice
            id = juice.id.rawValue
            label = strings.orderButton.filling(["juice": juice.name[language]])
            priceText = Won.format(juice.price)
        }
    }
}

extension Menu {
    /// Each juice's name in `language`, by id: what the pages' scripts name an order by.
    func juiceNames(in language: Language) -> [String: String] {
        Dictionary(uniqueKeysWithValues: juices.map { ($0.id.rawValue, $0.name[language]) })
    }

    /// A juice's recipe as staff read it: `🍓 딸기 10 · 🍌 바나나 1`.
    func recipeLine(of juice: Juice, in language: Language) -> String {
        juice.recipe.map { ingredient in
            let fruit = fruit(ingredient.fruit)
            return "\(fruit?.emoji ?? "") \(fruit?.name[language] ?? ingredient.fruit.rawValue) \(ingredient.amount)"
        }.joined(separator: " · ")
    }
}
