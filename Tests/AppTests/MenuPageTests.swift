@testable import App
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// 메뉴 관리 as a page: staff only, each form's change made and said, each refusal said in the
/// form's language with nothing changed.
@Suite struct MenuPageTests {
    struct MenuItem: Decodable {
        let id: String
        let name: [String: String]
        let price: Int
        let soldOut: Bool
        let recipe: [Recipe]
        let optionGroups: [Group]

        struct Recipe: Decodable, Equatable { let fruit: String; let amount: Int }
        struct Group: Decodable { let id: String }
    }

    struct MenuBody: Decodable {
        let juices: [MenuItem]
        func juice(_ id: String) -> MenuItem? { juices.first { $0.id == id } }
    }

    static func menu(_ client: some TestClientProtocol) async throws -> MenuBody {
        try await client.json(.get, "/api/menu").decode(MenuBody.self)
    }

    @Test func onlyStaffSeeThePageAndTheHeaderLinksItForThem() async throws {
        try await TestShop().run { client in
            let guest = try await client.execute(uri: "/menu", method: .get) { $0 }
            #expect(guest.status == .found && guest.headers[.location] == "/login?next=%2Fmenu")
            let member = try await client.memberCookie()
            #expect(try await client.execute(uri: "/menu", method: .get, headers: [.cookie: member]) { $0 }.status == .found)
            #expect(!(try await client.execute(uri: "/", method: .get, headers: [.cookie: member]) { $0 }.text.contains("href=\"/menu\"")))

            let staff = try await client.staffCookie()
            let html = try await client.execute(uri: "/menu", method: .get, headers: [.cookie: staff]) { $0 }.text
            #expect(html.contains("<title>메뉴 관리 · 쥬스메이커</title>"))
            #expect(html.contains(#"<a href="/menu" aria-current="page">메뉴 관리</a>"#))
            #expect(html.contains(#"<form method="post" action="/menu/juices/kiwiJuice" class="juice-edit">"#))
            #expect(html.contains(#"id="price-kiwiJuice" name="price""#) && html.contains(#"value="5000""#))
            #expect(html.contains(#"id="group-kiwiJuice-size" name="groups[]" value="size" checked"#))
            let english = try await client.execute(uri: "/menu?lang=en", method: .get, headers: [.cookie: staff]) { $0 }.text
            #expect(english.contains("<title>Menu · JuiceMaker</title>") && english.contains(">Mark sold out</button>"))
        }
    }

    @Test func aPriceAndOptionGroupsAreSavedAndSaid() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let saved = try await client.postForm("/menu/juices/kiwiJuice", "price=5200&groups%5B%5D=size&lang=ko",
                                                  cookie: staff, from: "/menu")
            #expect(saved.status == .seeOther)
            let location = try #require(saved.headers[.location])
            #expect(location == "/menu?done=saved&juice=kiwiJuice&lang=ko")
            let kiwi = try #require(try await Self.menu(client).juice("kiwiJuice"))
            #expect(kiwi.price == 5_200 && kiwi.optionGroups.map(\.id) == ["size"])
            let page = try await client.execute(uri: location, method: .get, headers: [.cookie: staff]) { $0 }.text
            #expect(page.contains("키위쥬스의 가격과 옵션을 저장했어요."))

            // No box ticked sends no group: every one comes off.
            _ = try await client.postForm("/menu/juices/kiwiJuice", "price=5200&lang=ko", cookie: staff, from: "/menu")
            #expect(try await Self.menu(client).juice("kiwiJuice")?.optionGroups.isEmpty == true)
        }
    }

    @Test func aBadPriceIsSaidInTheFormsLanguageAndChangesNothing() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let korean = try await client.postForm("/menu/juices/kiwiJuice", "price=2000000&groups%5B%5D=size&lang=ko",
                                                   cookie: staff, from: "/menu")
            #expect(korean.status == .unprocessableContent)
            #expect(korean.text.contains("키위쥬스: 가격은 0원부터 1,000,000원까지만 돼요. (입력: 2,000,000)"))
            #expect(korean.text.contains(#"<a class="lang" href="/menu?lang=en""#), "the language link is the page's")
            let english = try await client.postForm("/menu/juices/kiwiJuice", "price=cheap&lang=en", cookie: staff, from: "/menu")
            #expect(english.status == .unprocessableContent)
            #expect(english.text.contains("Kiwi Juice: "), "\(english.text)")
            #expect(english.text.contains("<html lang=\"en\">"))
            let kiwi = try #require(try await Self.menu(client).juice("kiwiJuice"))
            #expect(kiwi.price == 5_000 && kiwi.optionGroups.count == 3)
        }
    }

    @Test func aJuiceIsAddedFromItsFormWithItsRecipeInTheMenusFruitOrder() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let form = "id=bananaKiwi&nameKo=%EB%B0%94%ED%82%A4%EC%A5%AC%EC%8A%A4&nameEn=Banana+Kiwi&price=5500"
                + "&recipe%5Bkiwi%5D=2&recipe%5Bbanana%5D=1&recipe%5Bmango%5D=&recipe%5Bstrawberry%5D=0"
                + "&groups%5B%5D=size&groups%5B%5D=ice&lang=ko"
            let added = try await client.postForm("/menu/juices", form, cookie: staff, from: "/menu")
            #expect(added.status == .seeOther && added.headers[.location] == "/menu?done=added&juice=bananaKiwi&lang=ko")
            let juice = try #require(try await Self.menu(client).juice("bananaKiwi"))
            #expect(juice.name == ["ko": "바키쥬스", "en": "Banana Kiwi"] && juice.price == 5_500)
            #expect(juice.recipe == [.init(fruit: "banana", amount: 1), .init(fruit: "kiwi", amount: 2)])
            #expect(juice.optionGroups.map(\.id) == ["size", "ice"])
        }
    }

    @Test func aRefusedJuiceComesBackAsTypedAndIsNotAdded() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let form = "id=dragonJuice&nameKo=%EC%9A%A9%EA%B3%BC&nameEn=Dragon&price=4000&recipe%5Bdragonfruit%5D=2&lang=ko"
            let refused = try await client.postForm("/menu/juices", form, cookie: staff, from: "/menu")
            #expect(refused.status == .notFound)
            #expect(refused.text.contains("없는 과일이에요: dragonfruit"))
            #expect(refused.text.contains(#"value="dragonJuice""#) && refused.text.contains(#"value="Dragon""#))
            #expect(refused.text.contains(#"id="new-group-size" name="groups[]" value="size">"#), "no box ticked, as sent")
            let empty = try await client.postForm("/menu/juices", "id=plainJuice&nameKo=a&nameEn=a&price=1000&lang=en",
                                                  cookie: staff, from: "/menu")
            #expect(empty.text.contains("A juice needs at least one fruit."), "\(empty.text)")
            let menu = try await Self.menu(client)
            #expect(menu.juice("dragonJuice") == nil && menu.juice("plainJuice") == nil)
        }
    }

    @Test func aJuiceIsMarkedSoldOutPutBackOnSaleAndRetired() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let soldOut = try await client.postForm("/menu/juices/mangoJuice/sold-out", "soldOut=true&lang=en", cookie: staff, from: "/menu")
            #expect(soldOut.headers[.location] == "/menu?done=soldOut&juice=mangoJuice&lang=en")
            #expect(try await Self.menu(client).juice("mangoJuice")?.soldOut == true)
            let page = try await client.execute(uri: "/menu?lang=en", method: .get, headers: [.cookie: staff]) { $0 }.text
            #expect(page.contains(#"<input type="hidden" name="soldOut" value="false">"#) && page.contains(">Back on sale</button>"))
            _ = try await client.postForm("/menu/juices/mangoJuice/sold-out", "soldOut=false&lang=ko", cookie: staff, from: "/menu")
            #expect(try await Self.menu(client).juice("mangoJuice")?.soldOut == false)

            let retired = try await client.postForm("/menu/juices/mangoJuice/retire", "lang=ko", cookie: staff, from: "/menu")
            let location = try #require(retired.headers[.location])
            #expect(try await Self.menu(client).juice("mangoJuice") == nil)
            let after = try await client.execute(uri: location, method: .get, headers: [.cookie: staff]) { $0 }.text
            #expect(after.contains("망고쥬스 메뉴를 내렸어요.") && after.contains(#"<ul class="retired" id="retired"><li>망고쥬스</li></ul>"#))
            #expect(!after.contains(#"data-juice="mangoJuice""#))
            let again = try await client.postForm("/menu/juices/mangoJuice/retire", "lang=ko", cookie: staff, from: "/menu")
            #expect(again.status == .notFound && again.text.contains("없는 쥬스예요: mangoJuice"))
        }
    }
}
