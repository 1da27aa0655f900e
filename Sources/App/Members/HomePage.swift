import Foundation
import Hummingbird
import JuiceBar
import Membership
import ShopBasics
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
    /// The member's orders still in the queue, oldest first.
    let activeOrders: [Order]
    /// The whole queue, for following the member's orders in it.
    let queue: [Order]
    let wait: QueueWait
    let menu: Menu
    /// The shop's days, whatever the server's own time zone: an event's first and last day, an order's day.
    let calendar: ShopCalendar
    /// The member's own account: username, password, Kakao link.
    let settings: AccountSettings
    let language: Language
    let request: Request

    struct PageData: Encodable {
        let words: HomeWords
        let queueWords: QueueWords
        let statuses: [String: String]
        let juiceNames: [String: String]
        /// The member's active orders and the whole queue, as the live `queue` event has them.
        let mine: [QueueEntry]
        let queue: [QueueEntry]
        /// An order's receipt, `{id}` filled in, for the orders the page adds.
        let receiptPath: String
    }

    var words: HomeWords { Words.of(language).home }

    func render(status: HTTPResponse.Status = .ok) -> Response {
        let names = menu.juiceNames(in: language)
        let strings = CommonWords.of(language)
        let allWords = Words.of(language)
        let now = Date()
        return Templates.page(.home, Model(
            header: PageHeader(.home, title: words.title, account: account, language: language, request: request, path: "/home"),
            words: words,
            greeting: words.greeting.filling(["name": account.name]),
            news: news.map { item in
                NewsLine(id: item.id, title: item.title, body: item.body, imagePath: item.imageID.map(imagePath),
                         registeredAt: item.registeredAt.formatted(.iso8601), day: calendar.dayText(of: item.registeredAt))
            },
            recommendation: recommendation.map { JuiceLink(id: $0.id.rawValue, name: $0.name[language]) },
            juices: menu.juices.map { OrderPage.JuiceButton($0, strings: strings, language: language) },
            orders: orders.map { order in
                let line = "\(names[order.juice.rawValue] ?? order.juice.rawValue) · \(calendar.dayText(of: order.time))"
                return OrderLine(juice: order.juice.rawValue, line: line, receipt: ReceiptPages.path(of: String(order.id), language),
                                 receiptLabel: words.receiptOf.filling(["order": line]))
            },
            isStaff: account.isStaff,
            event: event.map { event in
                EventDialog(id: event.id, title: event.title, body: event.body, imagePath: event.imageID.map(imagePath),
                            start: calendar.dayText(of: event.start), end: calendar.dayText(of: event.end))
            },
            account: settings,
            waitLine: allWords.queue.waitLine.filling(["ahead": String(wait.ahead), "minutes": String(wait.minutes)]),
            pageData: scriptJSON(PageData(
                words: words, queueWords: allWords.queue,
                statuses: allWords.statusNames,
                juiceNames: names, mine: activeOrders.map { QueueEntry($0, now: now) },
                queue: queue.map { QueueEntry($0, now: now) },
                receiptPath: ReceiptPages.path(of: "{id}", language)))), status: status)
    }

    /// What `home.mustache` shows. A news item's text is in the page at once; its image comes
    /// later into a box of fixed shape, so its arrival never moves or reorders anything.
    struct Model: PageModel {
        let header: PageHeader
        let words: HomeWords
        let greeting: String
        let news: [NewsLine]
        let recommendation: JuiceLink?
        let juices: [OrderPage.JuiceButton]
        let orders: [OrderLine]
        let isStaff: Bool
        let event: EventDialog?
        let account: AccountSettings
        /// `대기 N잔 · 약 M분`.
        let waitLine: String
        /// `PageData` as JSON made safe for a script block.
        let pageData: String
    }

    struct NewsLine {
        let id: Int64
        let title: String
        let body: String
        let imagePath: String?
        let registeredAt: String
        let day: String
    }

    struct JuiceLink {
        let id: String
        let name: String
    }

    /// One of the member's orders: `딸바쥬스 · 2026-11-23`, and a link to its receipt.
    struct OrderLine {
        let juice: String
        let line: String
        let receipt: String
        /// The link's name: `딸바쥬스 · 2026-11-23 영수증`.
        let receiptLabel: String
    }

    struct EventDialog {
        let id: Int64
        let title: String
        let body: String
        let imagePath: String?
        let start: String
        let end: String
    }
}

extension HomePage {
    /// `/home` saying what a change or a Kakao flow came to.
    static func saying(_ notice: AccountNotice) -> Response {
        Response.redirect(to: "/home?notice=\(notice.rawValue)", type: .found)
    }
}

/// The member's own account on `/home`: changing the username, setting a first password, and
/// connecting or disconnecting Kakao; with what the last change or Kakao flow came to.
struct AccountSettings {
    let words: AccountWords
    let username: String
    /// A member made by a Kakao sign-in has no password until they set one here.
    let needsPassword: Bool
    /// Nil when the server has no Kakao client id, or for staff, who never link Kakao.
    let kakao: KakaoLink?
    /// What the last change came to (`?notice=`).
    let notice: String?
    /// Why a change just posted was refused.
    let message: String?

    struct KakaoLink {
        let linked: Bool
    }

    init(account: Account, kakaoIssuer: String?, language: Language, notice: AccountNotice?, message: String?) {
        let words = Words.of(language).account
        self.words = words
        username = account.username
        needsPassword = !account.hasPassword
        kakao = kakaoIssuer.flatMap { issuer in account.isStaff ? nil : KakaoLink(linked: account.linkedIssuers.contains(issuer)) }
        self.notice = notice.flatMap { words.notices[$0] }
        self.message = message
    }
}

/// The member home's own words.
struct HomeWords: Encodable, Sendable {
    let title, greeting, whatsNew, noNews, close, hideToday, order, myOrders, noOrders, recommended: String
    let failed, postNews, postEvent, newsTitle, body, image, start, end, post: String
    /// An order's link to its receipt, and the link's full name: `{order}`.
    let receipt, receiptOf: String
}
