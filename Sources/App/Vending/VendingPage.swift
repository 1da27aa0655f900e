import Hummingbird
import JuiceBar
import Membership
import ShopBasics
import Storage
import VendingMachine

/// The vending machine's screen: products with image, name, price and stock; money buttons;
/// the balance; buy buttons; change; history; a sales chart. Staff also restock.
struct VendingPage {
    let state: VendingState
    let history: [Sale]
    let sales: [ProductSales]
    let account: Account?
    let language: Language
    let request: Request

    struct PageData: Encodable {
        let words: VendingWords
        let names: [String: String]
        let language: Language
        let version: Int64
        let maximumRestock: Int
    }

    var words: VendingWords { Words.of(language).vending }

    /// Each product's name in `language`, by id.
    static func names(of state: VendingState, in language: Language) -> [ProductID: String] {
        Dictionary(uniqueKeysWithValues: state.products.map { ($0.product.id, $0.product.name[language]) })
    }

    func render() -> Response {
        let isStaff = account?.isStaff ?? false
        let names = Self.names(of: state, in: language)
        let data = PageData(words: words, names: names, language: language, version: state.version,
                            maximumRestock: Restock.maximumCount)
        return Templates.page(.vending, Model(
            header: PageHeader(.vending, title: words.title, account: account, language: language, request: request),
            words: words, balance: Won.format(state.money.balance), isStaff: isStaff,
            moneyButtons: [1_000, 5_000].map { MoneyButton(amount: $0, label: Won.format($0)) },
            products: state.products.map { entry in
                let product = entry.product
                return ProductCard(
                    id: product.id, kind: product.category.kind, art: ProductArt(product), name: product.name[language],
                    price: Won.format(product.price), priceWon: product.price, stock: entry.stock,
                    soldOut: entry.stock == 0, affordable: product.price <= state.money.balance && entry.stock > 0)
            },
            history: history.map { HistoryLine(name: names[$0.product] ?? $0.product, price: Won.format($0.price)) },
            chart: SalesChart(sales: sales, names: names, emptyText: words.noSales),
            restockRange: words.restockRange.filling(["max": "\(Restock.maximumCount)"]),
            maximumRestock: Restock.maximumCount,
            pageData: scriptJSON(data)))
    }

    /// What `vending.mustache` shows.
    struct Model: PageModel {
        let header: PageHeader
        let words: VendingWords
        let balance: String
        let isStaff: Bool
        let moneyButtons: [MoneyButton]
        let products: [ProductCard]
        let history: [HistoryLine]
        let chart: SalesChart
        let restockRange: String
        let maximumRestock: Int
        /// `PageData` as JSON made safe for a script block.
        let pageData: String
    }

    struct ProductCard {
        let id: String
        let kind: String
        let art: ProductArt
        let name: String
        let price: String
        let priceWon: Int
        let stock: Int
        let soldOut: Bool
        let affordable: Bool
    }

    struct MoneyButton {
        let amount: Int
        let label: String
    }

    struct HistoryLine {
        let name: String
        let price: String
    }
}

/// Share of sales per product, as horizontal bars (`sales-chart.mustache`), in the page and at
/// `/vending/chart`.
struct SalesChart {
    struct Bar {
        let name: String
        let textY: Int
        let barY: Int
        let width: Int
        let percentX: Int
        let percent: Int
    }

    /// Shown instead of bars when nothing is sold yet.
    let emptyText: String?
    let bars: [Bar]
    let height: Int

    init(sales: [ProductSales], names: [String: String], emptyText: String) {
        let total = sales.reduce(0) { $0 + $1.units }
        let sold = sales.filter { $0.units > 0 }
        self.emptyText = total > 0 ? nil : emptyText
        bars = sold.enumerated().map { index, sale in
            let share = Double(sale.units) / Double(total)
            let y = index * 26
            return Bar(name: names[sale.product] ?? sale.product, textY: y + 17, barY: y + 5, width: Int(share * 160),
                       percentX: 96 + Int(share * 160), percent: Int((share * 100).rounded()))
        }
        height = sold.count * 26 + 6
    }

    var svg: String { Templates.render(.salesChart, self) }
}

/// The vending screen's own words.
struct VendingWords: Encodable, Sendable {
    let title, balance, returnChange, restock, buy, history, sales, soldOut, returned: String
    let noSales, failed, came, restockTitle, restockCount, restockRange, add, close: String
    /// A product's description line (`ProductDescription`).
    let milkLine, sodaLine, sugarFree, coffeeLine, hot, iced, itemDates: String
}
