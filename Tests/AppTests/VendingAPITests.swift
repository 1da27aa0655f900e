import App
import Foundation
import HummingbirdTesting
import Testing

@Suite struct VendingAPITests {
    struct Machine: Decodable {
        struct Product: Decodable { let id: String; let price: Int; let stock: Int; let kind: String }
        struct Totals: Decodable { let balance: Int; let inserted: Int; let spent: Int; let returned: Int }
        let balance: Int
        let products: [Product]
        let totals: Totals
    }

    @Test func insertBuyAndReturnChange() async throws {
        try await TestShop().run { client in
            #expect(try await client.json(.post, "/api/vending/money", #"{"amount":1000}"#).decode(Machine.self).balance == 1_000)
            #expect(try await client.json(.post, "/api/vending/money", #"{"amount":5000}"#).decode(Machine.self).balance == 6_000)
            let purchase = try await client.json(.post, "/api/vending/purchases", #"{"product":"cola"}"#)
            #expect(purchase.status == .created)
            struct Receipt: Decodable { let description: String; let balance: Int }
            let receipt = try purchase.decode(Receipt.self)
            #expect(receipt.balance == 4_000 && receipt.description.contains("콜라"))
            struct Change: Decodable { let returned: Int; let units: [String: Int]; let balance: Int }
            let change = try await client.json(.post, "/api/vending/change").decode(Change.self)
            #expect(change.returned == 4_000 && change.units == ["1000": 4] && change.balance == 0)
            let machine = try await client.json(.get, "/api/vending").decode(Machine.self)
            #expect(machine.totals.inserted == machine.totals.spent + machine.totals.returned + machine.balance)
            #expect(machine.products.first { $0.id == "cola" }?.stock == 4)
        }
    }

    @Test func refusalsAre409WithTheirReasonAndBadInput4xx() async throws {
        try await TestShop().run { client in
            let poor = try await client.json(.post, "/api/vending/purchases", #"{"product":"cola"}"#)
            #expect(poor.status == .conflict)
            #expect(try poor.decode(ErrorBody.self).error == "insufficient_balance")
            #expect(try await client.json(.post, "/api/vending/money", #"{"amount":2000}"#).status == .unprocessableContent)
            #expect(try await client.json(.post, "/api/vending/money", #"{"amount":"1000"}"#).status == .badRequest)
            #expect(try await client.json(.post, "/api/vending/purchases", #"{"product":"water"}"#).status == .notFound)
            #expect(try await client.json(.get, "/api/vending").decode(Machine.self).totals.inserted == 0)
        }
    }

    @Test func restockingIsForStaff() async throws {
        try await TestShop().run { client in
            let body = #"{"product":"cider","count":3,"manufactured":"2026-01-01"}"#
            #expect(try await client.json(.post, "/api/vending/stock", body).status == .unauthorized)
            let cookie = try await client.staffCookie()
            let restocked = try await client.json(.post, "/api/vending/stock", body, cookie: cookie)
            #expect(restocked.status == .ok)
            #expect(try await client.json(.post, "/api/vending/stock", #"{"product":"cider","count":1,"manufactured":"soon"}"#,
                                          cookie: cookie).status == .unprocessableContent)
        }
    }

    @Test func theScreenCarriesProductIdsAndMoneyButtons() async throws {
        try await TestShop().run { client in
            let html = try await client.execute(uri: "/vending", method: .get) { $0 }.text
            #expect(html.contains("data-product=\"cola\">5<"))
            #expect(html.contains("data-buy=\"cola\""))
            #expect(html.contains(">1,000원</button>") && html.contains(">5,000원</button>"))
            #expect(html.contains("data-balance>잔액: 0원<"))
            #expect(html.contains("잔돈 반환"))
            #expect(!html.contains("data-restock"))
        }
    }
}
