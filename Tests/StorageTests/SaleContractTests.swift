import Foundation
import JuiceBar
import Storage
import Testing

/// Selling a cart, on every engine: one order and one number for all its lines, kept with the
/// names and prices of the moment, paid now or later, refunded when cancelled.
@Suite struct SaleContractTests {
    /// 1 × 딸바쥬스 얼음 적게 (6,000원) and 1 × 망키쥬스 라지 (7,500원): within the seed's ten of each fruit.
    static let cart = [
        CartLine(juice: "strawberryBananaJuice", options: ["ice": ["less"]]),
        CartLine(juice: "mangoKiwiJuice", options: ["size": ["large"]]),
    ]

    @Test(arguments: Engine.available)
    func aCartIsOneOrderKeptAsItWasSold(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        let receipt = try await store.order(
            OrderRequest(lines: Self.cart, pickup: true, expectedTotal: 13_500, payment: PaymentRequest(method: .cash, received: 20_000)),
            actor: "staff")
        let order = receipt.order
        #expect(order.number == 1 && order.total == 13_500 && order.vat == 1_227)
        #expect(order.payment?.change == 6_500 && order.payment?.received == 20_000)
        // The large 망키 takes half as much fruit again, rounded up: 3 mangoes and 2 kiwis.
        #expect(receipt.stock.stock == Stock(["strawberry": 0, "banana": 9, "pineapple": 10, "kiwi": 8, "mango": 7]))

        _ = try await store.commit(.editJuice("strawberryBananaJuice", JuiceEdit(
            name: .init(ko: "딸기바나나", en: "Berry Banana"), price: 9_000)), actor: "staff")
        let reopened = try await shop.reopen().juiceBar
        let stored = try #require(try await reopened.order(id: order.id))
        #expect(stored == order, "names and prices as sold, whatever the menu says now")
        #expect(try await reopened.orders(limit: 1) == [order])
        await #expect(throws: SaleError.priceChanged(expected: 13_500, total: 16_500)) {
            try await reopened.order(OrderRequest(lines: Self.cart, expectedTotal: 13_500), actor: "staff")
        }
    }

    @Test(arguments: Engine.available)
    func anUnpaidOrderIsPaidLaterAndACancelRefundsAndReturnsWhatItTook(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        let order = try await store.order(OrderRequest(lines: Self.cart, member: nil, pickup: true), actor: "member:1").order
        #expect(order.payment == nil)
        let paid = try await store.pay(order: order.id, with: PaymentRequest(method: .card, approval: "30012345"), actor: "staff")
        #expect(paid.payment?.method == .card && paid.payment?.amount == 13_500 && paid.payment?.approval == "30012345")
        await #expect(throws: SaleError.alreadyPaid(order: order.id)) {
            try await store.pay(order: order.id, with: PaymentRequest(method: .cash), actor: "staff")
        }
        _ = try await store.commit(.editJuice("mangoKiwiJuice", JuiceEdit(recipe: [.init(fruit: "mango", amount: 5)])), actor: "staff")
        let cancelled = try await store.cancel(order: order.id, by: .staff, actor: "staff")
        #expect(cancelled.order.refund == paid.payment.map { Payment(method: $0.method, amount: $0.amount, approval: $0.approval,
                                                                        time: cancelled.order.statusTime) })
        #expect(cancelled.stock.stock == Stock(["strawberry": 10, "banana": 10, "pineapple": 10, "kiwi": 10, "mango": 10]))
        let stored = try #require(try await shop.reopen().juiceBar.order(id: order.id))
        #expect(stored.status == .cancelled && stored.refund == cancelled.order.refund && stored.payment == paid.payment)
    }
}
