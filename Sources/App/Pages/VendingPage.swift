import Hummingbird
import JuiceBar
import Membership
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

    struct Words: Encodable {
        let title, balance, insert, returnChange, restock, buy, history, sales, soldOut, returned, restockPrompt: String
        let noSales, failed: String
    }

    static let korean = Words(
        title: "자판기", balance: "잔액", insert: "원", returnChange: "잔돈 반환", restock: "재고 추가", buy: "구매",
        history: "구매 내역", sales: "판매 비율", soldOut: "품절", returned: "거스름돈", restockPrompt: "몇 개 추가할까요?",
        noSales: "아직 판매가 없어요", failed: "요청을 처리하지 못했어요")
    static let english = Words(
        title: "Vending Machine", balance: "Balance", insert: " won", returnChange: "Return change", restock: "Add stock",
        buy: "Buy", history: "Purchases", sales: "Share of sales", soldOut: "Sold out", returned: "Change",
        restockPrompt: "How many to add?", noSales: "No sales yet", failed: "Something went wrong")

    struct PageData: Encodable {
        let words: Words
        let names: [String: String]
        let language: Language
        let version: Int64
    }

    var words: Words { language == .ko ? Self.korean : Self.english }

    func render() -> Response {
        let isStaff = account?.isStaff ?? false
        let cards = state.products.map { entry -> String in
            let product = entry.product
            let id = escapeHTML(product.id)
            let affordable = product.price <= state.money.balance && entry.stock > 0
            let restock = isStaff
                ? "<button type=\"button\" class=\"secondary restock\" data-restock=\"\(id)\">\(escapeHTML(words.restock))</button>"
                : ""
            return """
                <li class="product" data-kind="\(product.category.kind)">
                  \(ProductArt.svg(for: product))
                  <span class="product-name">\(escapeHTML(product.name[language]))</span>
                  <span class="price">\(Won.format(product.price))</span>
                  <span class="stock-line"><span class="count" data-product="\(id)">\(entry.stock)</span></span>
                  <button type="button" class="buy" data-buy="\(id)" data-price="\(product.price)"\(affordable ? "" : " disabled")>\
                \(escapeHTML(words.buy))</button>
                  \(restock)
                </li>
                """
        }.joined(separator: "\n")

        let names = Dictionary(uniqueKeysWithValues: state.products.map { ($0.product.id, $0.product.name[language]) })
        let historyItems = history.map { sale in
            "<li>\(escapeHTML(names[sale.product] ?? sale.product)) · \(Won.format(sale.price))</li>"
        }.joined(separator: "\n")

        let data = PageData(words: words, names: names, language: language, version: state.version)
        let body = """
            <header class="bar">
              <h1>\(escapeHTML(words.title))</h1>
              <nav><a href="/\(language == .en ? "?lang=en" : "")">\(escapeHTML(Strings.of(language).orderScreenTitle))</a> \(languageSwitch(request, language, Strings.of(language)))</nav>
            </header>
            <main class="vending">
              <section class="money">
                <p class="balance" data-balance>\(escapeHTML(words.balance)): \(Won.format(state.money.balance))</p>
                <div class="money-buttons">
                  <button type="button" data-insert="1000">1000\(escapeHTML(words.insert))</button>
                  <button type="button" data-insert="5000">5000\(escapeHTML(words.insert))</button>
                  <button type="button" class="secondary" id="return-change">\(escapeHTML(words.returnChange))</button>
                </div>
                <p class="notice" id="notice" role="status"></p>
              </section>
              <ul class="products">
            \(cards)
              </ul>
              <section class="panels">
                <div class="card">
                  <h2>\(escapeHTML(words.history))</h2>
                  <ol class="history" id="history">\(historyItems)</ol>
                </div>
                <div class="card">
                  <h2>\(escapeHTML(words.sales))</h2>
                  <div data-sales-chart>\(SalesChart.svg(sales: sales, names: names, emptyText: words.noSales))</div>
                </div>
              </section>
            </main>
            <script type="application/json" id="page-data">\(scriptJSON(data))</script>
            """
        return page(title: words.title, language: language, body: body, scripts: ["vending.js"])
    }
}

/// Share of sales per product, as horizontal bars.
enum SalesChart {
    static func svg(sales: [ProductSales], names: [String: String], emptyText: String) -> String {
        let total = sales.reduce(0) { $0 + $1.units }
        guard total > 0 else { return "<svg viewBox=\"0 0 300 30\" class=\"chart\"><text x=\"0\" y=\"20\">\(escapeHTML(emptyText))</text></svg>" }
        let rows = sales.filter { $0.units > 0 }
        let bars = rows.enumerated().map { index, sale -> String in
            let share = Double(sale.units) / Double(total)
            let y = index * 26
            return """
                <text x="0" y="\(y + 17)" font-size="12">\(escapeHTML(names[sale.product] ?? sale.product))</text>
                <rect x="90" y="\(y + 5)" width="\(Int(share * 160))" height="16" rx="3" fill="#ff7a45"/>
                <text x="\(96 + Int(share * 160))" y="\(y + 17)" font-size="12">\(Int((share * 100).rounded()))%</text>
                """
        }.joined()
        return "<svg viewBox=\"0 0 300 \(rows.count * 26 + 6)\" class=\"chart\" role=\"img\">\(bars)</svg>"
    }
}
