import App
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct AccountTests {
    @Test func signUpRulesAndDuplicates() async throws {
        try await TestShop().run { client in
            let created = try await client.json(.post, "/api/members", #"{"username":"jimin_01","password":"long-enough"}"#)
            #expect(created.status == .created)
            #expect(try await client.json(.post, "/api/members", #"{"username":"jimin_01","password":"long-enough"}"#).status == .conflict)
            for body in [#"{"username":"JI","password":"long-enough"}"#, #"{"username":"bad name","password":"long-enough"}"#,
                         #"{"username":"someone","password":"short"}"#] {
                let refused = try await client.json(.post, "/api/members", body)
                #expect(refused.status == .unprocessableContent, "\(body)")
                _ = try refused.decode(ErrorBody.self)
            }
            let cookie = try await client.signIn("jimin_01", "long-enough")
            struct Me: Decodable { let username: String; let role: String }
            let me = try await client.json(.get, "/api/me", cookie: cookie).decode(Me.self)
            #expect(me.username == "jimin_01" && me.role == "member")
        }
    }

    @Test func fiveFailuresLockAUsernameForFifteenMinutes() async throws {
        let shop = try TestShop()
        try await shop.run { client in
            _ = try await client.memberCookie("minsu", password: "right-password")
            for _ in 0..<5 {
                #expect(try await client.json(.post, "/api/session", #"{"username":"minsu","password":"wrong-one"}"#).status == .unauthorized)
            }
            let locked = try await client.json(.post, "/api/session", #"{"username":"minsu","password":"right-password"}"#)
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] != nil)
            shop.clock.advance(by: 15 * 60 + 1)
            #expect(try await client.json(.post, "/api/session", #"{"username":"minsu","password":"right-password"}"#).status == .ok)
        }
    }

    @Test func membersGet403OnStaffRoutes() async throws {
        try await TestShop().run { client in
            let member = try await client.memberCookie()
            #expect(try await client.json(.put, "/api/stock/kiwi", #"{"count":1}"#, cookie: member).status == .forbidden)
            #expect(try await client.json(.post, "/api/vending/stock", #"{"product":"cola","count":1}"#, cookie: member).status == .forbidden)
            #expect(try await client.multipart("/api/news", fields: ["title": "hi"], cookie: member).status == .forbidden)
            #expect(try await client.multipart("/api/events", fields: ["title": "hi", "start": "2026-11-23", "end": "2026-11-24"],
                                               cookie: member).status == .forbidden)
        }
    }

    @Test func noPasswordIsStoredInTheDatabaseFile() async throws {
        let shop = try TestShop()
        let path = shop.databasePath
        try await shop.run { client in
            _ = try await client.memberCookie("sora", password: "sora-secret-password")
            for suffix in ["", "-wal"] {
                let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path + suffix))) ?? Data()
                #expect(bytes.range(of: Data("sora-secret-password".utf8)) == nil)
                #expect(bytes.range(of: Data(TestShop.adminPassword.utf8)) == nil)
            }
        }
    }

    @Test func requestsFromAnotherSiteAreRefused() async throws {
        try await TestShop().run { client in
            let order = #"{"juice":"bananaJuice"}"#
            let fromOrigin = try await client.json(.post, "/api/orders", order, headers: [.origin: "http://evil.example"])
            #expect(fromOrigin.status == .forbidden)
            let fromReferer = try await client.json(.post, "/api/orders", order, headers: [.referer: "http://evil.example/page"])
            #expect(fromReferer.status == .forbidden)
            #expect(try await client.json(.post, "/api/orders", order).status == .created)
            #expect(try await client.json(.get, "/api/stock").decode([String: Int].self)["banana"] == 8)
        }
    }
}

@Suite struct WhatsNewTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64)

    struct News: Decodable { let id: Int; let title: String; let imageURL: String?; let registeredAt: String }

    @Test func newsIsListedNewestFirst() async throws {
        let shop = try TestShop()
        try await shop.run { client in
            let staff = try await client.staffCookie()
            for title in ["first", "second", "third"] {
                #expect(try await client.multipart("/api/news", fields: ["title": title, "body": "..."], cookie: staff).status == .created)
                shop.clock.advance(by: 60)
            }
            let news = try await client.json(.get, "/api/news").decode([News].self)
            #expect(news.map(\.title) == ["third", "second", "first"])
            let member = try await client.memberCookie()
            let home = try await client.execute(uri: "/home", method: .get, headers: [.cookie: member]) { $0 }.text
            let positions = ["third", "second", "first"].compactMap { home.range(of: "<h3>\($0)</h3>")?.lowerBound }
            #expect(positions.count == 3 && positions == positions.sorted())
        }
    }

    @Test func imagesAreCheckedByContentAndServedWithCacheHeaders() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let posted = try await client.multipart("/api/news", fields: ["title": "with image"], image: Self.png, cookie: staff)
            #expect(posted.status == .created)
            let url = try #require(try posted.decode(News.self).imageURL)
            let image = try await client.execute(uri: url, method: .get) { $0 }
            #expect(image.headers[.contentType] == "image/png")
            let etag = try #require(image.headers[.eTag])
            #expect(image.headers[.cacheControl]?.contains("max-age") == true)
            #expect(try await client.execute(uri: url, method: .get, headers: [.ifNoneMatch: etag]) { $0 }.status == .notModified)

            let text = Array("<svg onload=alert(1)>".utf8)
            let refused = try await client.multipart("/api/news", fields: ["title": "bad"], image: text, cookie: staff)
            #expect(refused.status == .unprocessableContent)
            #expect(try refused.decode(ErrorBody.self).error == "unsupported_image")
            let huge = Self.png + Array(repeating: 0, count: 2 * 1024 * 1024)
            let tooBig = try await client.multipart("/api/news", fields: ["title": "big"], image: huge, cookie: staff)
            #expect([413, 422].contains(tooBig.status.code))
            #expect(try await client.json(.get, "/api/news").decode([News].self).count == 1)
        }
    }

    @Test func whatMembersAndStaffWriteIsShownAsText() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            _ = try await client.multipart("/api/news", fields: ["title": "<script>alert(1)</script>", "body": "<b>x</b>"], cookie: staff)
            try await client.json(.post, "/api/members", #"{"username":"evil","password":"long-enough","name":"<img src=x onerror=alert(1)>"}"#)
            let cookie = try await client.signIn("evil", "long-enough")
            let home = try await client.execute(uri: "/home", method: .get, headers: [.cookie: cookie]) { $0 }.text
            #expect(!home.contains("<script>alert(1)"))
            #expect(home.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(!home.contains("<img src=x"))
            #expect(!home.contains("<b>x</b>"))
        }
    }
}

@Suite struct EventPopUpTests {
    func postEvent(_ client: some TestClientProtocol, start: String = "2026-11-23", end: String = "2026-11-30") async throws {
        let staff = try await client.staffCookie()
        let posted = try await client.multipart("/api/events", fields: ["title": "겨울 이벤트", "body": "1+1", "start": start, "end": end],
                                                cookie: staff)
        #expect(posted.status == .created)
    }

    func home(_ client: some TestClientProtocol, _ cookie: String) async throws -> String {
        try await client.execute(uri: "/home", method: .get, headers: [.cookie: cookie]) { $0 }.text
    }

    @Test func theEventAppearsOncePerSignIn() async throws {
        try await TestShop().run { client in
            try await postEvent(client)
            let cookie = try await client.memberCookie()
            #expect(try await home(client, cookie).contains("<dialog id=\"event\""))
            #expect(try await !home(client, cookie).contains("<dialog id=\"event\""))
            let again = try await client.signIn("jimin", "member-pw-1")
            #expect(try await home(client, again).contains("<dialog id=\"event\""))
        }
    }

    @Test func hideForTodayLastsUntilTheShopsNextMidnight() async throws {
        let shop = try TestShop()
        try await shop.run { client in
            try await postEvent(client)
            let cookie = try await client.memberCookie()
            let page = try await home(client, cookie)
            let id = try #require(page.firstMatch(of: /data-event-id="(\d+)"/)?.1)
            #expect(try await client.json(.post, "/api/events/\(id)/hide-today", cookie: cookie).status == .noContent)

            shop.clock.advance(by: 13 * 3600)  // 23:00 in Seoul, still the same day
            #expect(try await !home(client, try await client.signIn("jimin", "member-pw-1")).contains("<dialog id=\"event\""))
            shop.clock.advance(by: 3600 + 1)  // just past midnight
            #expect(try await home(client, try await client.signIn("jimin", "member-pw-1")).contains("<dialog id=\"event\""))
        }
    }

    @Test func eventsOutsideTheirPeriodDoNotAppearAndBadPeriodsAreRefused() async throws {
        try await TestShop().run { client in
            try await postEvent(client, start: "2026-12-01", end: "2026-12-31")
            let cookie = try await client.memberCookie()
            #expect(try await !home(client, cookie).contains("<dialog id=\"event\""))
            let staff = try await client.staffCookie()
            for (start, end) in [("2026-12-31", "2026-12-01"), ("2026-02-30", "2026-03-01"), ("tomorrow", "2026-12-01"),
                                 ("+026-11-01", "2026-12-01")] {
                let refused = try await client.multipart(
                    "/api/events", fields: ["title": "x", "start": start, "end": end], cookie: staff)
                #expect(refused.status == .unprocessableContent, "\(start) \(end)")
            }
        }
    }
}

@Suite struct HostileInputTests {
    @Test func textWithANULIsRefusedAndNothingIsStored() async throws {
        try await TestShop().run { client in
            let signUp = try await client.json(.post, "/api/members", #"{"username":"minsu","password":"long-enough","name":"a\u0000b"}"#)
            #expect(signUp.status == .unprocessableContent)
            #expect(try signUp.decode(ErrorBody.self).error == "invalid_text")
            #expect(try await client.json(.post, "/api/session", #"{"username":"minsu","password":"long-enough"}"#).status
                    == .unauthorized)
            let staff = try await client.staffCookie()
            let news = try await client.multipart("/api/news", fields: ["title": "Sale\u{0}!", "body": "b"], cookie: staff)
            #expect(news.status == .unprocessableContent)
            #expect(try await client.json(.get, "/api/news").text == "[]")
        }
    }

    @Test func aMultipartFormWithAnEmptyBoundaryIs400() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            for contentType in ["multipart/form-data; boundary=", #"multipart/form-data; boundary="""#] {
                var headers: HTTPFields = [.contentType: contentType]
                headers.signIn(staff)
                let response = try await client.execute(
                    uri: "/api/news", method: .post, headers: headers,
                    body: ByteBuffer(string: "--\r\n\r\n")) { $0 }
                #expect(response.status == .badRequest, "\(contentType)")
            }
        }
    }

    @Test func aWrongMethodOnARouteWithAParameterIs405WithAllow() async throws {
        try await TestShop().run { client in
            let response = try await client.json(.delete, "/api/stock/kiwi")
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "PUT")
            #expect(try await client.json(.get, "/api/events/1/hide-today").headers[.allow] == "POST")
        }
    }
}

@Suite struct MemberOrderTests {
    struct Listed: Decodable { let juice: String }
    struct Recommendation: Decodable { let juice: String? }

    @Test func ordersAreLinkedToTheMemberWithARecommendation() async throws {
        try await TestShop().run { client in
            let jimin = try await client.memberCookie("jimin")
            let sora = try await client.memberCookie("sora")
            for juice in ["kiwiJuice", "bananaJuice", "kiwiJuice"] {
                #expect(try await client.json(.post, "/api/orders", #"{"juice":"\#(juice)"}"#, cookie: jimin).status == .created)
            }
            try await client.json(.post, "/api/orders", #"{"juice":"mangoJuice"}"#, cookie: sora)
            let mine = try await client.json(.get, "/api/me/orders", cookie: jimin).decode([Listed].self)
            #expect(mine.map(\.juice) == ["kiwiJuice", "bananaJuice", "kiwiJuice"])
            #expect(try await client.json(.get, "/api/me/recommendation", cookie: jimin).decode(Recommendation.self).juice == "kiwiJuice")

            // Kiwi is now 4: one more kiwi juice leaves 1, and then it cannot be made.
            try await client.json(.post, "/api/orders", #"{"juice":"kiwiJuice"}"#, cookie: jimin)
            #expect(try await client.json(.get, "/api/me/recommendation", cookie: jimin).decode(Recommendation.self).juice == "bananaJuice")
            #expect(try await client.json(.get, "/api/me/orders").status == .unauthorized)
        }
    }
}
