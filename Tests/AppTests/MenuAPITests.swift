import App
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// 메뉴 관리 in the API: prices and option groups shown, staff's edits, and every refusal.
@Suite struct MenuAPITests {
    struct Menu: Decodable {
        struct Group: Decodable {
            struct Option: Decodable { let id: String; let name: [String: String]; let price: Int }
            let id: String
            let min: Int
            let max: Int
            let options: [Option]
        }
        struct Item: Decodable {
            let id: String
            let price: Int
            let soldOut: Bool
            let optionGroups: [Group]
            let makeable: Int
        }
        let juices: [Item]
        func juice(_ id: String) -> Item? { juices.first { $0.id == id } }
    }

    @Test func theMenuShowsEachJuicesPriceAndItsOptionGroupsInFull() async throws {
        try await TestShop().run { client in
            let menu = try await client.json(.get, "/api/menu").decode(Menu.self)
            #expect(menu.juices.allSatisfy { (3_500...6_500).contains($0.price) && !$0.soldOut })
            let groups = try #require(menu.juice("strawberryBananaJuice")?.optionGroups)
            #expect(groups.map(\.id) == ["size", "ice", "sweetness"])
            #expect(groups.allSatisfy { $0.min == 1 && $0.max == 1 })
            #expect(groups[0].options.map(\.id) == ["regular", "large"] && groups[0].options[1].price == 1_000)
            #expect(groups[0].options[1].name["ko"] == "라지")
        }
    }

    @Test func staffChangeAPriceMarkASoldOutJuiceAndRetireOne() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let edited = try await client.json(.patch, "/api/menu/juices/kiwiJuice", #"{"price":5200,"soldOut":true}"#, cookie: staff)
            #expect(edited.status == .ok)
            #expect(try edited.decode(Menu.Item.self).price == 5_200)
            let menu = try await client.json(.get, "/api/menu").decode(Menu.self)
            #expect(menu.juice("kiwiJuice")?.price == 5_200 && menu.juice("kiwiJuice")?.soldOut == true)
            #expect(menu.juice("kiwiJuice")?.makeable == 0)

            let refused = try await client.json(.post, "/api/orders", #"{"juice":"kiwiJuice"}"#)
            #expect(refused.status == .conflict)
            #expect(try refused.decode(ErrorBody.self) == ErrorBody(error: "sold_out", message: "지금 품절이에요: 키위쥬스"))
            let english = try await client.json(.post, "/api/orders?lang=en", #"{"juice":"kiwiJuice"}"#)
            #expect(try english.decode(ErrorBody.self).message == "Kiwi Juice is sold out for now.")
            #expect(try await client.json(.get, "/api/stock").decode([String: Int].self)["kiwi"] == 10, "nothing taken")

            #expect(try await client.json(.delete, "/api/menu/juices/mangoJuice", cookie: staff).status == .noContent)
            #expect(try await client.json(.get, "/api/menu").decode(Menu.self).juice("mangoJuice") == nil)
            let gone = try await client.json(.patch, "/api/menu/juices/mangoJuice", #"{"price":1}"#, cookie: staff)
            #expect(gone.status == .notFound)
        }
    }

    @Test func staffAddAJuiceAndPutAnOptionGroup() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let group = #"{"name":{"ko":"추가","en":"Extras"},"min":0,"max":2,"options":[{"id":"honey","name":{"ko":"꿀 추가","en":"Honey"},"price":300},{"id":"shot","name":{"ko":"샷 추가","en":"Shot"},"price":500}]}"#
            #expect(try await client.json(.put, "/api/menu/option-groups/extra", group, cookie: staff).status == .ok)
            let added = try await client.json(.post, "/api/menu/juices", """
                {"id":"kiwiBananaJuice","name":{"ko":"키바쥬스","en":"Kiwi Banana"},"price":5500,
                 "recipe":[{"fruit":"kiwi","amount":2},{"fruit":"banana","amount":1}],"optionGroups":["size","extra"]}
                """, cookie: staff)
            #expect(added.status == .created)
            let item = try added.decode(Menu.Item.self)
            #expect(item.optionGroups.map(\.id) == ["size", "extra"] && item.optionGroups[1].options.map(\.price) == [300, 500])
            #expect(try await client.json(.get, "/api/menu").decode(Menu.self).juices.last?.id == "kiwiBananaJuice")
        }
    }

    @Test func badMenuEditsAreRefusedWithTheirCodeAndChangeNothing() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let before = try await client.json(.get, "/api/menu").text
            let refusals: [(HTTPRequest.Method, String, String, HTTPResponse.Status, String)] = [
                (.patch, "/api/menu/juices/kiwiJuice", #"{"price":-1}"#, .unprocessableContent, "price_out_of_range"),
                (.patch, "/api/menu/juices/kiwiJuice", #"{"price":1000001}"#, .unprocessableContent, "price_out_of_range"),
                (.patch, "/api/menu/juices/kiwiJuice", #"{"optionGroups":["topping"]}"#, .unprocessableContent, "unknown_option"),
                (.patch, "/api/menu/juices/kiwiJuice", #"{"recipe":[{"fruit":"grape","amount":1}]}"#, .notFound, "unknown_fruit"),
                (.patch, "/api/menu/juices/lemonJuice", #"{"price":1}"#, .notFound, "unknown_juice"),
                (.patch, "/api/menu/juices/kiwiJuice", #"{"price":"cheap"}"#, .badRequest, "invalid_body"),
                (.put, "/api/menu/option-groups/size", #"{"name":{"ko":"사이즈","en":"Size"},"min":2,"max":1,"options":[{"id":"a","name":{"ko":"가","en":"A"}}]}"#,
                 .unprocessableContent, "invalid_option_group"),
                (.post, "/api/menu/juices", #"{"id":"kiwiJuice","name":{"ko":"키위","en":"Kiwi"},"price":1,"recipe":[{"fruit":"kiwi","amount":1}]}"#,
                 .unprocessableContent, "duplicate"),
            ]
            for (method, uri, body, status, code) in refusals {
                let response = try await client.json(method, uri, body, cookie: staff)
                #expect(response.status == status, "\(uri) \(body)")
                #expect(try response.decode(ErrorBody.self).error == code, "\(uri) \(body)")
            }
            #expect(try await client.json(.patch, "/api/menu/juices/kiwiJuice", #"{"price":1}"#).status == .unauthorized)
            let member = try await client.memberCookie()
            #expect(try await client.json(.patch, "/api/menu/juices/kiwiJuice", #"{"price":1}"#, cookie: member).status == .forbidden)
            #expect(try await client.json(.get, "/api/menu").text == before)
        }
    }
}
