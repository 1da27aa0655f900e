import Hummingbird
import JuiceBar
import Membership
import Storage

/// The seed's two screens: the order screen (`쥬스 주문`) and, as a modal over it, the stock
/// screen (`재고 추가`). Drawn from the menu data; every control carries its model id.
struct OrderPage {
    let menu: Menu
    let stock: StockSnapshot
    let account: Account?
    let language: Language
    let strings: Strings
    let request: Request

    /// What the page script needs: words for its alerts, and juice names by id.
    struct PageData: Encodable {
        let strings: Strings
        let juiceNames: [String: String]
        let isStaff: Bool
        let isSignedIn: Bool
        let language: Language
        let version: Int64
        let maximumCount: Int
    }

    func render() -> Response {
        let fruitLabels = menu.fruits.map { fruit in
            """
            <li class="fruit">
              <span class="emoji" aria-hidden="true">\(escapeHTML(fruit.emoji))</span>
              <span class="fruit-name">\(escapeHTML(fruit.name[language]))</span>
              <span class="count" data-fruit="\(escapeHTML(fruit.id.rawValue))">\(stock.stock[fruit.id])</span>
            </li>
            """
        }.joined(separator: "\n")

        let orderButtons = menu.juices.map { juice in
            """
            <button type="button" class="order" data-juice="\(escapeHTML(juice.id.rawValue))">\
            \(escapeHTML(strings.orderButton(juice.name[language], language)))</button>
            """
        }.joined(separator: "\n")

        let stockRows = menu.fruits.map { fruit -> String in
            let name = fruit.name[language]
            let id = escapeHTML(fruit.id.rawValue)
            let count = stock.stock[fruit.id]
            return """
                <li class="stock-row">
                  <span class="stock-fruit"><span aria-hidden="true">\(escapeHTML(fruit.emoji))</span> \(escapeHTML(name))</span>
                  <span class="stepper">
                    <button type="button" class="step" data-step="-1" data-step-fruit="\(id)"
                      aria-label="\(escapeHTML(strings.stepLabel(name, strings.remove, language)))"\(count <= StockLimits.count.lowerBound ? " disabled" : "")>−</button>
                    <output class="stock-count" data-stock-fruit="\(id)">\(count)</output>
                    <button type="button" class="step" data-step="1" data-step-fruit="\(id)"
                      aria-label="\(escapeHTML(strings.stepLabel(name, strings.add, language)))"\(count >= StockLimits.count.upperBound ? " disabled" : "")>+</button>
                  </span>
                </li>
                """
        }.joined(separator: "\n")

        let data = PageData(
            strings: strings,
            juiceNames: Dictionary(uniqueKeysWithValues: menu.juices.map { ($0.id.rawValue, $0.name[language]) }),
            isStaff: account?.isStaff ?? false, isSignedIn: account != nil, language: language, version: stock.version,
            maximumCount: StockLimits.count.upperBound)

        let body = """
            <header class="bar">
              <h1>\(escapeHTML(strings.orderScreenTitle))</h1>
              <nav>\(languageSwitch(request, language, strings)) \(accountLinks)</nav>
            </header>
            <main class="order-screen">
              <section aria-label="\(escapeHTML(strings.fruitCounts))">
                <ul class="fruits">
            \(fruitLabels)
                </ul>
              </section>
              <section class="juices" aria-label="\(escapeHTML(strings.juices))">
            \(orderButtons)
              </section>
              <button type="button" id="edit-stock" class="secondary">\(escapeHTML(strings.editStock))</button>
            </main>
            <dialog id="alert" role="alertdialog" aria-modal="true" aria-labelledby="alert-message">
              <p id="alert-message"></p>
              <div class="actions" id="alert-actions"></div>
            </dialog>
            <dialog id="stock-screen" aria-modal="true" aria-labelledby="stock-title">
              <h2 id="stock-title">\(escapeHTML(strings.stockScreenTitle))</h2>
              <ul class="stock-rows">
            \(stockRows)
              </ul>
              <p class="error" id="stock-error" role="status"></p>
              <div class="actions"><button type="button" id="close-stock">\(escapeHTML(strings.close))</button></div>
            </dialog>
            <script type="application/json" id="page-data">\(scriptJSON(data))</script>
            """
        return page(title: strings.orderScreenTitle, language: language, body: body, scripts: ["order.js"])
    }

    private var accountLinks: String {
        let query = language == .en ? "?lang=en" : ""
        let vending = "<a href=\"/vending\(query)\">\(escapeHTML(strings.vending))</a>"
        if let account {
            return """
                \(vending) <a href="/home\(query)">\(escapeHTML(strings.home))</a>
                <form method="post" action="/logout" class="inline">
                  <span class="who">\(escapeHTML(account.name))</span>
                  <button type="submit" class="link">\(escapeHTML(strings.signOut))</button>
                </form>
                """
        }
        return "\(vending) <a href=\"/login\(query)\">\(escapeHTML(strings.signIn))</a>"
    }
}
