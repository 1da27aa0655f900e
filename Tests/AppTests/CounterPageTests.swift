@testable import App
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The counter screen (`/counter`) as the server draws it: staff only, the menu's buttons with their
/// prices and 품절, every option group's choices, and the data `counter.js` prices the cart by.
@Suite struct CounterPageTests {
    @Test func onlyStaffSeeTheCounterAndTheHeaderLinksItForThem() async throws {
        try await TestShop().run { client in
            let guest = try await client.execute(uri: "/counter", method: .get) { $0 }
            #expect(guest.status == .found && guest.headers[.location] == "/login?next=%2Fcounter")
            let member = try await client.memberCookie()
            #expect(try await client.execute(uri: "/counter", method: .get, headers: [.cookie: member]) { $0 }.status == .found)
            #expect(!(try await client.execute(uri: "/home", method: .get, headers: [.cookie: member]) { $0 }.text.contains(#"href="/counter""#)))

            let staff = try await client.staffCookie()
            let html = try await client.execute(uri: "/counter", method: .get, headers: [.cookie: staff]) { $0 }.text
            #expect(html.contains("<title>주문 받기 · 쥬스메이커</title>"))
            #expect(html.contains(#"<a href="/counter" aria-current="page">주문 받기</a>"#))
            #expect(html.contains(#"<meta name="csrf-token" content="\#(HTTPFields.csrfToken(staff))">"#))
            let kitchen = try await client.execute(uri: "/kitchen", method: .get, headers: [.cookie: staff]) { $0 }.text
            #expect(kitchen.contains(#"<a href="/counter">주문 받기</a>"#))
        }
    }

    @Test func theMenuIsDrawnWithPricesSoldOutJuicesOffAndEachGroupsChoices() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let sold = try await client.json(.patch, "/api/menu/juices/kiwiJuice", #"{"soldOut":true}"#, cookie: staff)
            #expect(sold.status == .ok)
            let html = try await client.execute(uri: "/counter", method: .get, headers: [.cookie: staff]) { $0 }.text
            #expect(html.contains(#"data-juice="strawberryBananaJuice">"#) && html.contains(#"<span class="item-price">6,000원</span>"#))
            #expect(html.contains(#"data-juice="kiwiJuice" disabled>"#) && html.contains(#"<span class="sold-out">품절</span>"#))
            #expect(html.contains(#"<fieldset class="option-group" data-group="size" aria-describedby="group-error-size" hidden>"#))
            #expect(html.contains(#"<input type="radio" name="group-size" value="large"> 라지 +1,000원</label>"#))
            #expect(html.contains(#"<input type="radio" name="group-ice" value="less"> 적게</label>"#))
            #expect(html.contains(#"<button type="button" class="secondary" data-cash="20000">20,000원</button>"#))

            let english = try await client.execute(uri: "/counter?lang=en", method: .get, headers: [.cookie: staff]) { $0 }.text
            #expect(english.contains("<title>Take orders · JuiceMaker</title>"))
            #expect(english.contains(#"<span class="item-name">Strawberry Banana Juice</span>"#))
            #expect(english.contains(#"value="large"> Large +1,000원</label>"#) && english.contains(">Take payment</button>"))
        }
    }

    /// A group a cup may take several of is checkboxes, one it may leave empty offers "none", and
    /// the page's data carries the menu (retired juices too, to name them) and the server's limits.
    @Test func aGroupIsAskedAsItsBoundsSayAndThePageDataCarriesTheMenu() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let group = #"""
            {"name":{"ko":"토핑","en":"Topping"},"min":0,"max":2,"options":[
             {"id":"nata","name":{"ko":"나타드코코","en":"Nata de coco"},"price":500},
             {"id":"jelly","name":{"ko":"젤리","en":"Jelly"},"price":500}]}
            """#
            #expect(try await client.json(.put, "/api/menu/option-groups/topping", group, cookie: staff).status == .ok)
            let straw = #"{"name":{"ko":"빨대","en":"Straw"},"min":0,"max":1,"options":[{"id":"paper","name":{"ko":"종이","en":"Paper"}}]}"#
            #expect(try await client.json(.put, "/api/menu/option-groups/straw", straw, cookie: staff).status == .ok)
            #expect(try await client.json(.delete, "/api/menu/juices/mangoJuice", cookie: staff).status == .noContent)
            let html = try await client.execute(uri: "/counter", method: .get, headers: [.cookie: staff]) { $0 }.text
            #expect(html.contains(#"<legend>토핑 <span class="hint">(0~2개 고르기)</span></legend>"#))
            #expect(html.contains(#"<input type="checkbox" name="group-topping" value="jelly"> 젤리 +500원</label>"#))
            #expect(html.contains(#"<input type="radio" name="group-straw" value=""> 선택 안 함</label>"#))
            #expect(!html.contains(#"data-juice="mangoJuice""#))

            let json = try #require(html.firstMatch(of: /<script type="application\/json" id="page-data">(.*?)<\/script>/)?.output.1)
            struct Data: Decodable {
                struct Menu: Decodable {
                    struct Juice: Decodable { let id: String; let retired: Bool }
                    let juices: [Juice]
                }
                struct Limits: Decodable { let min: Int; let max: Int }
                let menu: Menu
                let messages: [String: String]
                let quantity: Limits
                let maximumLines: Int
            }
            let data = try JSONDecoder().decode(Data.self, from: Foundation.Data(json.utf8))
            #expect(data.menu.juices.first { $0.id == "mangoJuice" }?.retired == true)
            #expect(data.messages["optionsRequired"] == "{group}에서 {min}개를 골라 주세요.")
            #expect((data.quantity.min, data.quantity.max, data.maximumLines) == (1, 99, 20))
        }
    }
}
