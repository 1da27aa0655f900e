import App
import Foundation
import HummingbirdTesting
import Testing

@Suite struct JuiceBarAPITests {
    let newShop = ["strawberry": 10, "banana": 10, "pineapple": 10, "kiwi": 10, "mango": 10]

    @Test func stockAndMenuOfANewShop() async throws {
        try await TestShop().run { client in
            #expect(try await client.json(.get, "/api/stock").decode([String: Int].self) == newShop)
            struct Menu: Decodable {
                struct Item: Decodable { let id: String; let makeable: Int }
                let juices: [Item]
            }
            let menu = try await client.json(.get, "/api/menu").decode(Menu.self)
            #expect(menu.juices.map(\.id) == ["strawberryBananaJuice", "mangoKiwiJuice", "strawberryJuice", "bananaJuice",
                                              "pineappleJuice", "kiwiJuice", "mangoJuice"])
            #expect(menu.juices.first { $0.id == "strawberryJuice" }?.makeable == 0)
        }
    }

    @Test func anOrderAnswers201WithTheOrderAndTheNewStock() async throws {
        try await TestShop().run { client in
            let response = try await client.json(.post, "/api/orders", #"{"juice":"mangoKiwiJuice"}"#)
            #expect(response.status == .created)
            struct Body: Decodable {
                struct Order: Decodable { let id: Int; let juice: String }
                let order: Order
                let stock: [String: Int]
            }
            let body = try response.decode(Body.self)
            #expect(body.order.juice == "mangoKiwiJuice")
            #expect(body.stock["mango"] == 8 && body.stock["kiwi"] == 9)
            #expect(try await client.json(.get, "/api/stock").decode([String: Int].self) == body.stock)
            struct Listed: Decodable { let id: Int; let juice: String }
            #expect(try await client.json(.get, "/api/orders").decode([Listed].self).map(\.juice) == ["mangoKiwiJuice"])
        }
    }

    @Test func aShortageAnswers409NamingEachShortFruit() async throws {
        try await TestShop().run { client in
            let response = try await client.json(.post, "/api/orders", #"{"juice":"strawberryJuice"}"#)
            #expect(response.status == .conflict)
            struct Body: Decodable {
                struct Shortage: Decodable, Equatable { let fruit: String; let needed: Int; let available: Int }
                let error: String
                let message: String
                let shortages: [Shortage]
            }
            let body = try response.decode(Body.self)
            #expect(body.error == "out_of_stock")
            #expect(body.shortages == [.init(fruit: "strawberry", needed: 16, available: 10)])
            #expect(try await client.json(.get, "/api/stock").decode([String: Int].self) == newShop)
        }
    }

    @Test(arguments: [
        ("/api/orders", "{\"juice\":", 400),
        ("/api/orders", "[]", 400),
        ("/api/orders", "{}", 400),
        ("/api/orders", "{\"juice\":42}", 400),
        ("/api/orders", "{\"juice\":\"lemonJuice\"}", 404),
        ("/api/orders?x=<script>", "", 400),
    ])
    func badOrdersGetAJSON4xxAndChangeNothing(uri: String, body: String, status: Int) async throws {
        try await TestShop().run { client in
            let response = try await client.json(.post, uri, body)
            #expect(response.status.code == status)
            #expect(try response.decode(ErrorBody.self).message.isEmpty == false)
            #expect(try await client.json(.get, "/api/stock").decode([String: Int].self) == newShop)
            #expect(try await client.json(.get, "/api/orders").text == "[]")
        }
    }

    @Test func stockEditsNeedAStaffSession() async throws {
        try await TestShop().run { client in
            let anonymous = try await client.json(.put, "/api/stock/kiwi", #"{"count":5}"#)
            #expect(anonymous.status == .unauthorized)
            #expect(try anonymous.decode(ErrorBody.self).error == "unauthorized")

            let cookie = try await client.staffCookie()
            let edited = try await client.json(.put, "/api/stock/kiwi", #"{"count":5}"#, cookie: cookie)
            #expect(edited.status == .ok)
            #expect(try await client.json(.get, "/api/stock").decode([String: Int].self)["kiwi"] == 5)
        }
    }

    @Test(arguments: [
        ("kiwi", #"{"count":-1}"#, 422),
        ("kiwi", #"{"count":1000001}"#, 422),
        ("kiwi", #"{"count":"abc"}"#, 400),
        ("kiwi", #"{"count":1.5}"#, 400),
        ("kiwi", "not json", 400),
        ("grape", #"{"count":1}"#, 404),
    ])
    func badStockEditsGetAJSON4xxAndChangeNothing(fruit: String, body: String, status: Int) async throws {
        try await TestShop().run { client in
            let cookie = try await client.staffCookie()
            let response = try await client.json(.put, "/api/stock/\(fruit)", body, cookie: cookie)
            #expect(response.status.code == status)
            _ = try response.decode(ErrorBody.self)
            #expect(try await client.json(.get, "/api/stock").decode([String: Int].self) == newShop)
        }
    }

    @Test func ordersTakeAPositiveLimit() async throws {
        try await TestShop().run { client in
            for _ in 0..<3 { try await client.json(.post, "/api/orders", #"{"juice":"bananaJuice"}"#) }
            struct Listed: Decodable { let id: Int }
            #expect(try await client.json(.get, "/api/orders?limit=2").decode([Listed].self).count == 2)
            #expect(try await client.json(.get, "/api/orders?limit=0").status == .badRequest)
        }
    }
}
