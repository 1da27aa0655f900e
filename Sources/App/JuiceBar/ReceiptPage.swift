import Foundation
import Hummingbird
import JuiceBar
import Membership
import ShopBasics
import Storage

/// An order's receipt (영수증, `GET /orders/{id}/receipt`), for staff and for the member whose
/// order it is: the shop's name, 사업자등록번호, address and phone, then the sale as it was stored.
/// It prints on an 80 mm receipt printer from the browser (`app.css`'s print rules; `receipt.js`
/// cuts the paper as long as the receipt).
struct ReceiptPages {
    let juiceBar: JuiceBarService
    let settings: any ShopSettingStore
    let calendar: @Sendable () -> ShopCalendar

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.group().add(middleware: SignInRequired.signedInPages)
            .get("orders/:id/receipt", use: receipt)
    }

    /// Where order `id`'s receipt is, in `language`; `id` may be a placeholder a script fills (`{id}`).
    static func path(of id: String, _ language: Language) -> String {
        "/orders/\(id)/receipt" + (language == .en ? "?lang=en" : "")
    }

    @Sendable func receipt(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let account = try context.requireAccount()
        let language = context.language
        let words = Words.of(language)
        func page(_ receipt: Receipt?, problem: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
            Templates.page(.receipt, ReceiptPage(
                header: PageHeader(.receipt, title: words.receipt.title, account: account, language: language, request: request),
                words: words.receipt, receipt: receipt, problem: problem), status: status)
        }
        let text = context.parameters.get("id") ?? ""
        guard let id = Int64(text), let order = try await juiceBar.order(id: id) else {
            return page(nil, problem: words.say(Message(.unknownOrder, ["id": .text(text)])), status: .notFound)
        }
        guard account.isStaff || order.member == account.id else {
            return page(nil, problem: words.receipt.notYours, status: .forbidden)
        }
        return page(Receipt(order, shop: try await settings.shopInfo(), menu: juiceBar.menu, calendar: calendar(),
                            language: language))
    }
}

/// What `receipt.mustache` shows: the receipt, or why there is none.
struct ReceiptPage: PageModel {
    let header: PageHeader
    let words: ReceiptWords
    let receipt: Receipt?
    let problem: String?
}

/// A receipt's text, every value written out. Names, prices and money come from the stored order
/// alone, so a later change of the menu leaves the receipt as it was printed. The menu only says
/// what an option's group is called and which options are its defaults (left out unless they cost
/// extra), and names the juice of an order from before carts, which kept no name.
struct Receipt: Equatable {
    let shopName: String
    let businessNumber: String?
    let address: String?
    let phone: String?
    let number: Int
    /// When it was ordered, in the shop's zone, and as `<time datetime>` reads it.
    let time: String
    let timestamp: String
    /// `취소됨` for a cancelled order.
    let cancelled: String?
    let lines: [Line]
    /// Nil for an order from before prices were kept, which has no money to show.
    let money: Money?

    struct Line: Equatable {
        let name: String
        /// `사이즈 라지 +1,000원 · 얼음 적게`; nil when the cup is as it comes.
        let options: String?
        /// Nil for an order from before prices were kept.
        let unitPrice: String?
        let quantity: Int
        let amount: String?
    }

    struct Money: Equatable {
        let total: String
        /// 공급가액: the total less its VAT.
        let supplyValue: String
        let vat: String
        let payment: PaymentLines?
        /// `미결제 (매장에서 결제)`, for an order that is neither paid nor cancelled.
        let unpaid: String?
        let refund: PaymentLines?
    }

    /// A payment or refund: its method and amount, the cash received and change, the card's approval.
    struct PaymentLines: Equatable {
        let method: String
        let amount: String
        let received: String?
        let change: String?
        let approval: String?
        let time: String
    }

    init(_ order: Order, shop: ShopInfo, menu: Menu, calendar: ShopCalendar, language: Language) {
        let words = Words.of(language)
        shopName = shop.name
        businessNumber = shop.businessNumber?.description
        address = shop.address
        phone = shop.phone
        number = order.number
        time = calendar.timeText(of: order.time)
        timestamp = order.time.formatted(.iso8601)
        cancelled = order.status == .cancelled ? words.statuses[.cancelled] : nil
        guard !order.lines.isEmpty else {
            // Before carts an order was one cup of its juice, at no price kept.
            lines = [Line(name: menu.juice(order.juice)?.name[language] ?? order.juice.rawValue, options: nil,
                          unitPrice: nil, quantity: 1, amount: nil)]
            money = nil
            return
        }
        lines = order.lines.map { line in
            Line(name: line.name[language], options: menu.optionsText(of: line, in: language),
                 unitPrice: Won.format(line.unitPrice), quantity: line.quantity, amount: Won.format(line.amount))
        }
        func written(_ payment: Payment) -> PaymentLines {
            PaymentLines(method: words.receipt.methods[payment.method] ?? payment.method.rawValue,
                         amount: Won.format(payment.amount), received: payment.received.map(Won.format),
                         change: payment.change.map(Won.format), approval: payment.approval,
                         time: calendar.timeText(of: payment.time))
        }
        money = Money(total: Won.format(order.total), supplyValue: Won.format(order.total - order.vat),
                      vat: Won.format(order.vat), payment: order.payment.map(written),
                      unpaid: order.payment == nil && order.status != .cancelled ? words.receipt.unpaid : nil,
                      refund: order.refund.map(written))
    }
}

extension Menu {
    /// A sold cup's options as staff and receipts read them: each named with its group
    /// (`사이즈 라지 +1,000원 · 얼음 적게`), leaving out a group's default unless it cost extra.
    /// An option whose group the menu no longer has is named alone. Nil when none is left.
    func optionsText(of line: SoldLine, in language: Language) -> String? {
        let optionLine = Words.of(language).counter.optionLine
        let shown = line.options.compactMap { option -> String? in
            let group = optionGroup(option.group)
            if option.price == 0, group?.defaults.contains(option.id) == true { return nil }
            let name = group.map { optionLine.filling(["group": $0.name[language], "option": option.name[language]]) }
                ?? option.name[language]
            return option.price > 0 ? "\(name) +\(Won.format(option.price))" : name
        }
        return shown.isEmpty ? nil : shown.joined(separator: " · ")
    }
}
