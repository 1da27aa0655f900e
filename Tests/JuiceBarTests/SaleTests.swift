import Foundation
import JuiceBar
import Testing

/// Selling a cart: priced by the menu, its stock taken together, paid now or later, refunded
/// when cancelled — all decided by the book.
@Suite struct SaleTests {
    let time = Date(timeIntervalSince1970: 1_795_395_600)
    var book = JuiceBarBook(menu: .seed, stock: Stock(["strawberry": 40, "banana": 10, "mango": 10, "kiwi": 10]))
    /// 2 × 딸바쥬스 라지/얼음 적게 and 1 × 망키쥬스: (6,000 + 1,000) × 2 + 6,500.
    static let cart = [
        CartLine(juice: "strawberryBananaJuice", quantity: 2, options: ["size": ["large"], "ice": ["less"]]),
        CartLine(juice: "mangoKiwiJuice"),
    ]

    @Test mutating func aCartIsOneOrderWithOneNumberPricedByTheMenu() throws {
        let plan = try book.decide(.order(OrderRequest(lines: Self.cart, pickup: true)), actor: "staff", at: time)
        let order = try #require(plan.order)
        #expect(order.number == 1 && order.total == 20_500 && order.vat == 1_864 && order.payment == nil)
        #expect(order.lines.map(\.amount) == [14_000, 6_500] && order.lines[0].unitPrice == 7_000)
        #expect(order.lines[0].options.map(\.id) == ["large", "less", "normal"])
        // A large cup takes half as much fruit again, rounded up: 15 strawberries and 2 bananas.
        #expect(book.stock.counts == ["strawberry": 10, "banana": 6, "mango": 8, "kiwi": 9])
        #expect(plan.ledger.map(\.delta) == [-30, -4, -2, -1])
        #expect(plan.ledger.map(\.countAfter) == [10, 6, 8, 9])
        #expect(plan.ledger.map(\.juice) == ["strawberryBananaJuice", "strawberryBananaJuice", "mangoKiwiJuice", "mangoKiwiJuice"])
    }

    @Test mutating func linesShortTogetherAreRefusedTogether() throws {
        book.stock["strawberry"] = 25
        let before = book
        let lines = [CartLine(juice: "strawberryBananaJuice"), CartLine(juice: "strawberryJuice")]  // 10 + 16
        #expect(throws: OutOfStock.self) { try book.decide(.order(OrderRequest(lines: lines)), actor: "s", at: time) }
        #expect(book == before)
    }

    @Test mutating func aTotalTheClientDidNotSeeIsRefused() throws {
        let before = book
        #expect(throws: SaleError.priceChanged(expected: 20_000, total: 20_500)) {
            try book.decide(.order(OrderRequest(lines: Self.cart, expectedTotal: 20_000)), actor: "s", at: time)
        }
        #expect(book == before)
        let plan = try book.decide(.order(OrderRequest(lines: Self.cart, expectedTotal: 20_500)), actor: "s", at: time)
        #expect(plan.order?.total == 20_500)
    }

    @Test mutating func cashGetsItsChangeAndTooLittleIsRefused() throws {
        let before = book
        #expect(throws: SaleError.notEnoughCash(total: 20_500, received: 20_000)) {
            try book.decide(.order(OrderRequest(lines: Self.cart, payment: PaymentRequest(method: .cash, received: 20_000))),
                            actor: "s", at: time)
        }
        #expect(book == before)
        let paid = try book.decide(.order(OrderRequest(lines: Self.cart, payment: PaymentRequest(method: .cash, received: 30_000))),
                                   actor: "s", at: time).order?.payment
        #expect(paid == Payment(method: .cash, amount: 20_500, received: 30_000, change: 9_500, time: time))
        let card = try book.decide(.order(OrderRequest(lines: [CartLine(juice: "kiwiJuice")],
                                                       payment: PaymentRequest(method: .card, approval: "30012345"))),
                                   actor: "s", at: time).order?.payment
        #expect(card == Payment(method: .card, amount: 5_000, approval: "30012345", time: time))
        #expect(throws: SaleError.badPayment) {
            try book.decide(.order(OrderRequest(lines: Self.cart, payment: PaymentRequest(method: .card, approval: "12 34"))),
                            actor: "s", at: time)
        }
    }

    @Test mutating func anOrderAcceptedUnpaidIsPaidOnceAtTheCounter() throws {
        let order = try #require(try book.decide(.order(OrderRequest(lines: Self.cart, member: 7, pickup: true)),
                                                 actor: "member:7", at: time).order)
        book.orders[1] = { var stored = order; stored.id = 1; return stored }()
        let paid = try book.decide(.pay(order: 1, PaymentRequest(method: .transfer)), actor: "staff", at: time + 60)
        #expect(paid.changedOrder?.payment == Payment(method: .transfer, amount: 20_500, time: time + 60))
        #expect(throws: SaleError.alreadyPaid(order: 1)) {
            try book.decide(.pay(order: 1, PaymentRequest(method: .cash)), actor: "staff", at: time)
        }
    }

    @Test mutating func aCancelReturnsWhatTheOrderTookAndRefundsItsPayment() throws {
        var order = try #require(try book.decide(
            .order(OrderRequest(lines: Self.cart, pickup: true, payment: PaymentRequest(method: .card))), actor: "s", at: time).order)
        order.id = 1
        book.orders[1] = order
        // The recipe changes after the sale: the cancel still returns what the sale took.
        _ = try book.decide(.editJuice("strawberryBananaJuice", JuiceEdit(recipe: [.init(fruit: "strawberry", amount: 1)])),
                            actor: "staff", at: time)
        let cancel = try book.decide(.cancel(order: 1, by: .staff), actor: "staff", at: time + 60)
        #expect(book.stock.counts == ["strawberry": 40, "banana": 10, "mango": 10, "kiwi": 10])
        #expect(cancel.changedOrder?.refund == Payment(method: .card, amount: 20_500, time: time + 60))
        #expect(cancel.ledger.map(\.delta) == [30, 4, 2, 1])
        #expect(throws: SaleError.orderCancelled(order: 1)) {
            try book.decide(.pay(order: 1, PaymentRequest(method: .cash)), actor: "staff", at: time)
        }
    }

    @Test mutating func anOrderFromBeforeCartsReturnsItsJuicesRecipe() throws {
        book.orders[9] = Order(id: 9, juice: "kiwiJuice", time: time, actor: "old", status: .received, pickup: true)
        let cancel = try book.decide(.cancel(order: 9, by: .staff), actor: "staff", at: time)
        #expect(cancel.changedOrder?.refund == nil && book.stock["kiwi"] == 13)
    }

    /// Random carts sold against a small stock, then every accepted one cancelled: no count ever
    /// goes below zero, a refused cart changes nothing, and the cancels give back exactly what the
    /// sales took.
    @Test mutating func randomCartsNeverTakeStockBelowZeroAndCancelsGiveItAllBack() throws {
        var generator = SplitMix(seed: 51)
        let start = Stock(["strawberry": 60, "banana": 20, "pineapple": 20, "kiwi": 20, "mango": 20])
        book.stock = start
        var sold: [Order] = []
        for id in Int64(1)...400 {
            let lines = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                CartLine(juice: Menu.seed.juices.randomElement(using: &generator)!.id, quantity: Int.random(in: 1...3, using: &generator),
                         options: Bool.random(using: &generator) ? ["size": ["large"]] : [:])
            }
            let before = book
            do {
                var order = try #require(try book.decide(.order(OrderRequest(lines: lines, pickup: true)), actor: "s", at: time).order)
                order.id = id
                book.orders[id] = order
                sold.append(order)
            } catch is OutOfStock {
                #expect(book == before)
            }
            #expect(book.stock.counts.values.allSatisfy { $0 >= 0 })
        }
        #expect(sold.count > 10 && book.stock != start)
        for order in sold { _ = try book.decide(.cancel(order: order.id, by: .staff), actor: "s", at: time) }
        #expect(book.stock == start)
    }
}
