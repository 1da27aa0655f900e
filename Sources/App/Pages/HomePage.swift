import Foundation
import Hummingbird
import JuiceBar
import Membership
import Storage

/// The member's home: a greeting, the event pop-up (once), What's New newest first, and
/// ordering juices with their history and a recommendation. Staff also post news and events.
struct HomePage {
    let account: Account
    let event: ShopEvent?
    let news: [NewsItem]
    /// The member's most recent orders.
    let orders: [Order]
    /// How many recent orders the page lists.
    static let shownOrders = 20
    let recommendation: Juice?
    let menu: Menu
    let language: Language
    let request: Request

    struct Words: Encodable {
        let title, greeting, whatsNew, noNews, close, hideToday, order, myOrders, noOrders, recommended: String
        let made, shortage, failed, postNews, postEvent, newsTitle, body, image, start, end, post, juiceOrder, vending: String
        let signOut: String
    }

    static let korean = Words(
        title: "홈", greeting: "{name}님, 안녕하세요!", whatsNew: "What's New", noNews: "아직 새 소식이 없어요.",
        close: "닫기", hideToday: "오늘 하루 보지 않기", order: "주문", myOrders: "내 주문", noOrders: "아직 주문이 없어요.",
        recommended: "추천", made: "{juice} 나왔습니다! 맛있게 드세요!", shortage: "재료가 모자라요.",
        failed: "요청을 처리하지 못했어요.", postNews: "새 소식 올리기", postEvent: "이벤트 올리기", newsTitle: "제목",
        body: "내용", image: "이미지", start: "시작일", end: "종료일", post: "올리기", juiceOrder: "쥬스 주문",
        vending: "자판기", signOut: "로그아웃")
    static let english = Words(
        title: "Home", greeting: "Hello, {name}!", whatsNew: "What's New", noNews: "No news yet.",
        close: "Close", hideToday: "Don't show again today", order: "Order", myOrders: "My orders", noOrders: "No orders yet.",
        recommended: "For you", made: "{juice} is ready! Enjoy!", shortage: "Not enough fruit.",
        failed: "Something went wrong.", postNews: "Post news", postEvent: "Post an event", newsTitle: "Title",
        body: "Text", image: "Image", start: "Starts", end: "Ends", post: "Post", juiceOrder: "Juice order",
        vending: "Vending machine", signOut: "Sign out")

    struct PageData: Encodable {
        let words: Words
        let juiceNames: [String: String]
    }

    var words: Words { language == .ko ? Self.korean : Self.english }

    func render() -> Response {
        let names = Dictionary(uniqueKeysWithValues: menu.juices.map { ($0.id.rawValue, $0.name[language]) })
        let query = language == .en ? "?lang=en" : ""
        let body = """
            <header class="bar">
              <h1>\(escapeHTML(words.title))</h1>
              <nav>
                <a href="/\(query)">\(escapeHTML(words.juiceOrder))</a>
                <a href="/vending\(query)">\(escapeHTML(words.vending))</a>
                \(languageSwitch(request, language, Strings.of(language)))
                <form method="post" action="/logout" class="inline"><button type="submit" class="link">\(escapeHTML(words.signOut))</button></form>
              </nav>
            </header>
            <main class="home">
              <h2 class="greeting">\(escapeHTML(words.greeting.replacingOccurrences(of: "{name}", with: account.name)))</h2>
              <section class="card" aria-labelledby="whats-new">
                <h2 id="whats-new">\(escapeHTML(words.whatsNew))</h2>
                \(news.isEmpty ? "<p class=\"muted\">\(escapeHTML(words.noNews))</p>" : "")
                <ol class="news">\(news.map(newsItem).joined(separator: "\n"))</ol>
              </section>
              \(recommendationSection(names))
              <section class="card">
                <h2>\(escapeHTML(words.order))</h2>
                <div class="juices">
                \(menu.juices.map { juice in
                    "<button type=\"button\" class=\"order\" data-juice=\"\(escapeHTML(juice.id.rawValue))\">\(escapeHTML(Strings.of(language).orderButton(juice.name[language], language)))</button>"
                }.joined(separator: "\n"))
                </div>
                <p class="notice" id="order-result" role="status"></p>
                <h3>\(escapeHTML(words.myOrders))</h3>
                <ol class="my-orders" id="my-orders">\(orders.map { orderItem($0, names) }.joined())</ol>
                \(orders.isEmpty ? "<p class=\"muted\" id=\"no-orders\">\(escapeHTML(words.noOrders))</p>" : "")
              </section>
              \(account.isStaff ? staffForms : "")
            </main>
            \(event.map(eventDialog) ?? "")
            <script type="application/json" id="page-data">\(scriptJSON(PageData(words: words, juiceNames: names)))</script>
            """
        return page(title: words.title, language: language, body: body, scripts: ["home.js"])
    }

    private func recommendationSection(_ names: [String: String]) -> String {
        guard let recommendation else { return "<p class=\"recommendation\" id=\"recommendation\" hidden></p>" }
        return """
            <p class="recommendation" id="recommendation">\(escapeHTML(words.recommended)): \
            <strong data-recommended="\(escapeHTML(recommendation.id.rawValue))">\(escapeHTML(recommendation.name[language]))</strong></p>
            """
    }

    private func orderItem(_ order: Order, _ names: [String: String]) -> String {
        "<li data-order-juice=\"\(escapeHTML(order.juice.rawValue))\">\(escapeHTML(names[order.juice.rawValue] ?? order.juice.rawValue)) · \(Self.day(order.time))</li>"
    }

    /// The text is in the page at once; the image comes later into a box of fixed shape, so its
    /// arrival never moves or reorders anything.
    private func newsItem(_ item: NewsItem) -> String {
        let image = item.imageID.map {
            "<div class=\"news-image\"><img data-src=\"\(imagePath($0))\" alt=\"\" decoding=\"async\"></div>"
        } ?? ""
        return """
            <li class="news-item" data-news-id="\(item.id)">
              \(image)
              <div class="news-text">
                <h3>\(escapeHTML(item.title))</h3>
                <p>\(escapeHTML(item.body))</p>
                <time datetime="\(item.registeredAt.formatted(.iso8601))">\(Self.day(item.registeredAt))</time>
              </div>
            </li>
            """
    }

    private func eventDialog(_ event: ShopEvent) -> String {
        let image = event.imageID.map { "<img src=\"\(imagePath($0))\" alt=\"\" class=\"event-image\">" } ?? ""
        return """
            <dialog id="event" aria-labelledby="event-title" data-event-id="\(event.id)">
              \(image)
              <h2 id="event-title">\(escapeHTML(event.title))</h2>
              <p>\(escapeHTML(event.body))</p>
              <p class="muted">\(Self.day(event.start)) ~ \(Self.day(event.end))</p>
              <div class="actions">
                <button type="button" id="event-close">\(escapeHTML(words.close))</button>
                <button type="button" id="event-hide-today">\(escapeHTML(words.hideToday))</button>
              </div>
            </dialog>
            """
    }

    private var staffForms: String {
        """
        <section class="card staff">
          <h2>\(escapeHTML(words.postNews))</h2>
          <form class="post" data-endpoint="/api/news" enctype="multipart/form-data">
            <label for="news-title">\(escapeHTML(words.newsTitle))</label><input id="news-title" name="title" required maxlength="100">
            <label for="news-body">\(escapeHTML(words.body))</label><textarea id="news-body" name="body" rows="3"></textarea>
            <label for="news-image">\(escapeHTML(words.image))</label>
            <input id="news-image" name="image" type="file" accept="image/png,image/jpeg,image/webp">
            <button type="submit">\(escapeHTML(words.post))</button>
            <p class="error" role="status"></p>
          </form>
          <h2>\(escapeHTML(words.postEvent))</h2>
          <form class="post" data-endpoint="/api/events" enctype="multipart/form-data">
            <label for="event-title-input">\(escapeHTML(words.newsTitle))</label><input id="event-title-input" name="title" required>
            <label for="event-body">\(escapeHTML(words.body))</label><textarea id="event-body" name="body" rows="3"></textarea>
            <label for="event-start">\(escapeHTML(words.start))</label><input id="event-start" name="start" type="date" required>
            <label for="event-end">\(escapeHTML(words.end))</label><input id="event-end" name="end" type="date" required>
            <label for="event-image">\(escapeHTML(words.image))</label>
            <input id="event-image" name="image" type="file" accept="image/png,image/jpeg,image/webp">
            <button type="submit">\(escapeHTML(words.post))</button>
            <p class="error" role="status"></p>
          </form>
        </section>
        """
    }

    static func day(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .current).year().month().day())
    }
}
