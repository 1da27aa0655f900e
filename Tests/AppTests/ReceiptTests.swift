@testable import App
import Foundation
import Hummingbird
import HummingbirdTesting
import JuiceBar
import ShopBasics
import Testing

/// 영수증: the receipt's text comes from the stored order, so a later price change leaves it as it
/// was; the page is for staff and the member whose order it is; `/home` links a member's orders to
/// theirs; the making screen's queue carries each line with its options.
@Suite struct ReceiptTests {
    static let seoul = ShopCalendar(timeZone: TestShop.seoul)
    static let shop = try! ShopInfo(name: "쥬스메이커 강남점", businessNumber: "1248100998", address: "서울특별시 강남구 테헤란로 1",
                                    phone: "02-123-4567")
    /// 2026-11-23 10:00 in Seoul.
    static let morning = Date(timeIntervalSince1970: 1_795_395_600)

    /// 딸바쥬스 라지/얼음 적게 (7,000원) and 망키쥬스 (6,500원), as the seed menu priced them, and its payment.
    static func sale(paid payment: PaymentRequest? = PaymentRequest(method: .cash, received: 20_000)) throws -> Order {
        let cart = try Menu.seed.price([
            CartLine(juice: "strawberryBananaJuice", options: ["size": ["large"], "ice": ["less"]]),
            CartLine(juice: "mangoKiwiJuice"),
        ])
        return Order(id: 7, juice: "strawberryBananaJuice", time: morning.addingTimeInterval(3_725), actor: "admin", number: 3,
                     day: "2026-11-23", status: .received, pickup: true, sale: cart,
                     payment: try payment?.settle(cart.total, at: morning.addingTimeInterval(3_725)))
    }

    @Test func theReceiptSaysTheShopTheLinesTheTaxAndTheChange() throws {
        let receipt = Receipt(try Self.sale(), shop: Self.shop, menu: .seed, calendar: Self.seoul, language: .ko)
        #expect(receipt.shopName == "쥬스메이커 강남점" && receipt.businessNumber == "124-81-00998")
        #expect(receipt.address == "서울특별시 강남구 테헤란로 1" && receipt.phone == "02-123-4567")
        #expect(receipt.number == 3 && receipt.time == "2026-11-23 11:02:05" && receipt.cancelled == nil)
        #expect(receipt.lines.map(\.name) == ["딸바쥬스", "망키쥬스"])
        // The defaults (레귤러, 보통, 기본) are left out; what costs extra says so.
        #expect(receipt.lines.map(\.options) == ["사이즈 라지 +1,000원 · 얼음 적게", nil])
        #expect(receipt.lines.map(\.unitPrice) == ["7,000원", "6,500원"] && receipt.lines.map(\.amount) == ["7,000원", "6,500원"])
        let money = try #require(receipt.money)
        // 부가세 = 13,500 − round(13,500 / 1.1) = 1,227; 공급가액 the rest.
        #expect(money.total == "13,500원" && money.vat == "1,227원" && money.supplyValue == "12,273원")
        let payment = try #require(money.payment)
        #expect(payment.method == "현금" && payment.amount == "13,500원")
        #expect(payment.received == "20,000원" && payment.change == "6,500원" && payment.approval == nil)
        #expect(money.unpaid == nil && money.refund == nil)

        let english = Receipt(try Self.sale(), shop: Self.shop, menu: .seed, calendar: Self.seoul, language: .en)
        #expect(english.lines.map(\.name) == ["Strawberry Banana Juice", "Mango Kiwi Juice"])
        #expect(english.lines.first?.options == "Size: Large +1,000원 · Ice: Less ice")
        #expect(english.money?.payment?.method == "Cash")
    }

    @Test func aLaterPriceChangeLeavesTheReceiptAsItWas() throws {
        let order = try Self.sale()
        let before = Receipt(order, shop: Self.shop, menu: .seed, calendar: Self.seoul, language: .ko)
        var repriced = Menu.seed
        let index = try #require(repriced.juices.firstIndex { $0.id == "strawberryBananaJuice" })
        repriced.juices[index].price = 9_000
        repriced.juices[index].name = .init(ko: "새 딸바쥬스", en: "New Strawberry Banana")
        for group in repriced.optionGroups.indices {
            for option in repriced.optionGroups[group].options.indices { repriced.optionGroups[group].options[option].price += 500 }
        }
        #expect(try repriced.price([CartLine(juice: "strawberryBananaJuice")]).total == 10_500, "the next order pays the new price")
        #expect(Receipt(order, shop: Self.shop, menu: repriced, calendar: Self.seoul, language: .ko) == before)
    }

    @Test func anUnpaidOrderACardACancelAndAnOrderFromBeforeCarts() throws {
        let unpaid = Receipt(try Self.sale(paid: nil), shop: .unset, menu: .seed, calendar: Self.seoul, language: .ko)
        #expect(unpaid.shopName == "JuiceMaker" && unpaid.businessNumber == nil && unpaid.address == nil)
        #expect(unpaid.money?.payment == nil && unpaid.money?.unpaid == "미결제 (매장에서 결제)")

        var card = try Self.sale(paid: PaymentRequest(method: .card, approval: "30012345"))
        let byCard = Receipt(card, shop: Self.shop, menu: .seed, calendar: Self.seoul, language: .en)
        #expect(byCard.money?.payment?.method == "Card" && byCard.money?.payment?.approval == "30012345")
        #expect(byCard.money?.payment?.received == nil && byCard.money?.payment?.change == nil)

        card.status = .cancelled
        card.refund = card.payment?.refunded(at: Self.morning.addingTimeInterval(4_000))
        let refunded = Receipt(card, shop: Self.shop, menu: .seed, calendar: Self.seoul, language: .ko)
        #expect(refunded.cancelled == "취소됨" && refunded.money?.unpaid == nil)
        #expect(refunded.money?.refund?.method == "카드" && refunded.money?.refund?.amount == "13,500원")
        #expect(refunded.money?.refund?.time == "2026-11-23 11:06:40")

        let old = Order(id: 1, juice: "bananaJuice", time: Self.morning, actor: "admin")
        let unpriced = Receipt(old, shop: Self.shop, menu: .seed, calendar: Self.seoul, language: .ko)
        #expect(unpriced.lines == [Receipt.Line(name: "바나나쥬스", options: nil, unitPrice: nil, quantity: 1, amount: nil)])
        #expect(unpriced.money == nil)
    }

    static let cart = #"{"lines":[{"juice":"strawberryBananaJuice","options":{"size":["large"],"ice":["less"]}},{"juice":"mangoKiwiJuice"}],"#

    @Test func staffAndTheMemberWhoseOrderItIsSeeTheReceiptAndNoOneElse() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            try await client.json(.put, "/api/stock/strawberry", #"{"count":60}"#, cookie: staff)
            try await client.json(.patch, "/api/shop", #"{"name":"쥬스메이커 강남점","businessNumber":"124-81-00998"}"#, cookie: staff)
            let sold = try await client.json(.post, "/api/orders", Self.cart + #""payment":{"method":"cash","received":20000}}"#,
                                             cookie: staff)
            #expect(sold.status == .created)
            let staffOrder = try sold.decode(Placed.self).order.id
            let html = try await client.execute(uri: "/orders/\(staffOrder)/receipt", method: .get, headers: [.cookie: staff]) { $0 }
            #expect(html.status == .ok)
            for text in ["<title>영수증 · 쥬스메이커</title>", "쥬스메이커 강남점", "124-81-00998", "사이즈 라지 +1,000원 · 얼음 적게",
                         "<dt>합계</dt><dd>13,500원</dd>", "<dt>공급가액</dt><dd>12,273원</dd>", "<dt>부가세</dt><dd>1,227원</dd>",
                         "<dt>거스름돈</dt><dd>6,500원</dd>", #"<script src="/assets/receipt.js" defer></script>"#] {
                #expect(html.text.contains(text), "\(text)")
            }
            let english = try await client.execute(uri: "/orders/\(staffOrder)/receipt?lang=en", method: .get,
                                                   headers: [.cookie: staff]) { $0 }.text
            #expect(english.contains("<dt>Supply value</dt><dd>12,273원</dd>") && english.contains("<dt>Change</dt><dd>6,500원</dd>"))

            let jimin = try await client.memberCookie("jimin")
            let mine = try await client.json(.post, "/api/orders", #"{"juice":"kiwiJuice","pickup":true}"#, cookie: jimin)
            let memberOrder = try mine.decode(Placed.self).order.id
            let own = try await client.execute(uri: "/orders/\(memberOrder)/receipt", method: .get, headers: [.cookie: jimin]) { $0 }
            #expect(own.status == .ok && own.text.contains("미결제 (매장에서 결제)"))
            let home = try await client.execute(uri: "/home", method: .get, headers: [.cookie: jimin]) { $0 }.text
            #expect(home.contains(#"<a href="/orders/\#(memberOrder)/receipt" aria-label="키위쥬스 · 2026-11-23 영수증">영수증</a>"#))

            let other = try await client.execute(uri: "/orders/\(staffOrder)/receipt", method: .get, headers: [.cookie: jimin]) { $0 }
            #expect(other.status == .forbidden && other.text.contains("다른 회원의 영수증은 볼 수 없어요.") && !other.text.contains("13,500원"))
            let guest = try await client.execute(uri: "/orders/\(memberOrder)/receipt", method: .get) { $0 }
            #expect(guest.status == .found && guest.headers[.location] == "/login?next=%2Forders%2F\(memberOrder)%2Freceipt")
            for (uri, message) in [("/orders/999/receipt", "없는 주문이에요: 999"), ("/orders/x/receipt?lang=en", "There is no order x.")] {
                let missing = try await client.execute(uri: uri, method: .get, headers: [.cookie: staff]) { $0 }
                #expect(missing.status == .notFound && missing.text.contains(message), "\(uri)")
            }
        }
    }

    @Test func theQueueCarriesEachLineWithItsOptionsAndTheFruitItTakes() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            try await client.json(.put, "/api/stock/strawberry", #"{"count":60}"#, cookie: staff)
            #expect(try await client.json(.post, "/api/orders", Self.cart + #""pickup":true}"#, cookie: staff).status == .created)
            let queue = try await client.json(.get, "/api/queue").decode([Entry].self)
            let lines = try #require(queue.first?.lines)
            #expect(lines.map(\.juice) == ["strawberryBananaJuice", "mangoKiwiJuice"] && lines.map(\.quantity) == [1, 1])
            #expect(lines[0].options.map(\.id) == ["large", "less", "normal"] && lines[0].options[0].name["ko"] == "라지")
            #expect(lines[0].uses == [.init(fruit: "strawberry", amount: 15), .init(fruit: "banana", amount: 2)])
            let kitchen = try await client.execute(uri: "/kitchen", method: .get, headers: [.cookie: staff]) { $0 }.text
            #expect(kitchen.contains(#""optionLine":"{group} {option}""#) && kitchen.contains(#""cups":"{juice} ×{quantity}""#))
            #expect(kitchen.contains(#""size":{"defaults":["regular"],"name":"사이즈"}"#))
        }
    }

    struct Placed: Decodable {
        struct Order: Decodable { let id: Int64 }
        let order: Order
    }

    struct Entry: Decodable {
        struct Line: Decodable {
            struct Option: Decodable { let group: String; let id: String; let name: [String: String] }
            struct Use: Decodable, Equatable { let fruit: String; let amount: Int }
            let juice: String
            let quantity: Int
            let options: [Option]
            let uses: [Use]
        }
        let lines: [Line]
    }
}
