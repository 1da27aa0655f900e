import DayClose
import Foundation
import Hummingbird
import HummingbirdTesting
import JuiceBar
import Membership
import ShopBasics
import Storage
import Testing
import VendingMachine
@testable import App

/// Every message a person can be shown exists in both word tables, says the same things in
/// both, and names fruits, juices and products by their names in the request's language.
@Suite struct WordsTests {
    static func hasHangul(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
    }

    /// English text may write money as Korean shops do (`1,000원`), and nothing else in Hangul.
    static func isEnglish(_ text: String) -> Bool { !hasHangul(text.replacingOccurrences(of: "원", with: "")) }

    /// The `{name}`s a text leaves for values.
    static func placeholders(_ text: String) -> Set<String> {
        Set(text.split(separator: "{", omittingEmptySubsequences: false).dropFirst().compactMap { $0.split(separator: "}").first.map(String.init) })
    }

    @Test(arguments: MessageKey.allCases)
    func everyMessageIsInBothTablesAndTranslated(key: MessageKey) throws {
        let korean = try #require(Words.korean.messages[key], "no Korean words for \(key)")
        let english = try #require(Words.english.messages[key], "no English words for \(key)")
        #expect(Self.hasHangul(korean), "the Korean \(key) is not Korean: \(korean)")
        #expect(Self.isEnglish(english), "the English \(key) is not English: \(english)")
        #expect(Self.placeholders(korean) == Self.placeholders(english), "\(key) fills other values in each language")
    }

    /// Page words that are the same in both languages on purpose: the seed's own English label, the
    /// link to the other language, a range of numbers, cups counted (`딸바쥬스 ×2`), and an option
    /// named with its group (`얼음 적게`, `Ice: Less ice`): values alone, nothing to translate.
    static let sameInBothLanguages: Set<String> = ["whatsNew", "restockRange", "cups", "optionLine"]

    @Test func everyStatusIsNamedInBothLanguages() {
        for status in OrderStatus.allCases {
            #expect(Self.hasHangul(Words.korean.statuses[status] ?? ""), "\(status) has no Korean name")
            #expect(Self.isEnglish(Words.english.statuses[status] ?? "한"), "\(status) has no English name")
        }
    }

    @Test func everyPageWordIsTranslated() {
        let sections: [(String, Any, Any)] = [
            ("common", Words.korean.common, Words.english.common), ("home", Words.korean.home, Words.english.home),
            ("vending", Words.korean.vending, Words.english.vending), ("queue", Words.korean.queue, Words.english.queue),
            ("reports", Words.korean.reports, Words.english.reports), ("receipt", Words.korean.receipt, Words.english.receipt),
            ("account", Words.korean.account, Words.english.account), ("menu", Words.korean.menu, Words.english.menu),
            ("counter", Words.korean.counter, Words.english.counter),
        ]
        for (section, korean, english) in sections {
            for (koreanWord, englishWord) in zip(Mirror(reflecting: korean).children, Mirror(reflecting: english).children) {
                let name = koreanWord.label ?? "?"
                guard let ko = koreanWord.value as? String, let en = englishWord.value as? String else { continue }
                #expect(!ko.isEmpty && !en.isEmpty, "\(section).\(name) is empty")
                #expect(Self.placeholders(ko) == Self.placeholders(en), "\(section).\(name) fills other values")
                if Self.sameInBothLanguages.contains(name) { continue }
                if name == "otherLanguage" {
                    #expect(ko == "English" && en == "한국어")
                    continue
                }
                #expect(Self.hasHangul(ko), "\(section).\(name) is not Korean: \(ko)")
                #expect(Self.isEnglish(en), "\(section).\(name) is not English: \(en)")
            }
        }
    }

    @Test func everyPaymentMethodIsNamedInBothLanguages() {
        for method in PaymentMethod.allCases {
            #expect(Self.hasHangul(Words.korean.receipt.methods[method] ?? ""), "\(method) has no Korean name")
            #expect(Self.isEnglish(Words.english.receipt.methods[method] ?? "한"), "\(method) has no English name")
        }
    }

    @Test(arguments: AccountNotice.allCases)
    func everyAccountNoticeIsInBothTablesAndTranslated(notice: AccountNotice) throws {
        #expect(Self.hasHangul(try #require(Words.korean.account.notices[notice], "no Korean words for \(notice)")))
        #expect(Self.isEnglish(try #require(Words.english.account.notices[notice], "no English words for \(notice)")))
    }

    @Test(arguments: MenuNotice.allCases)
    func everyMenuNoticeIsInBothTablesAndTranslated(notice: MenuNotice) throws {
        let korean = try #require(Words.korean.menu.notices[notice], "no Korean words for \(notice)")
        let english = try #require(Words.english.menu.notices[notice], "no English words for \(notice)")
        #expect(Self.hasHangul(korean) && Self.isEnglish(english))
        #expect(Self.placeholders(korean) == ["juice"] && Self.placeholders(english) == ["juice"], "\(notice)")
    }

    @Test func bothTablesNameTheSameFieldsAndKinds() {
        #expect(Set(Words.korean.fields.keys) == Set(Words.english.fields.keys))
        #expect(Set(Words.korean.kinds.keys) == Set(ValueKind.allCases))
        #expect(Set(Words.english.kinds.keys) == Set(ValueKind.allCases))
        for (field, korean) in Words.korean.fields { #expect(Self.hasHangul(korean), "field \(field): \(korean)") }
    }

    /// One of each refusal the API can answer with, and the server's own troubles, each with the
    /// status and code the API has always answered it with: codes stay stable whatever the words.
    static let refusals: [(error: any Error, status: Int, code: String)] = [
        (JuiceBarError.unknownFruit("dragonfruit"), 404, "unknown_fruit"),
        (JuiceBarError.unknownJuice("lemonJuice"), 404, "unknown_juice"),
        (JuiceBarError.notANumber("many"), 422, "not_a_number"),
        (JuiceBarError.countOutOfRange(-1), 422, "count_out_of_range"),
        (JuiceBarError.amountOutOfRange(0), 422, "amount_out_of_range"),
        (JuiceBarError.invalidIdentifier("1x"), 422, "invalid_id"),
        (JuiceBarError.duplicate("kiwi"), 422, "duplicate"),
        (JuiceBarError.emptyName, 422, "empty_name"),
        (JuiceBarError.invalidText("name"), 422, "invalid_text"),
        (JuiceBarError.invalidText("emoji"), 422, "invalid_text"),
        (JuiceBarError.emptyRecipe, 422, "empty_recipe"),
        (SaleError.unknownJuice("lemonJuice"), 404, "unknown_juice"),
        (SaleError.unknownOption(group: "size", option: "huge"), 422, "unknown_option"),
        (SaleError.unknownOption(group: "topping", option: nil), 422, "unknown_option"),
        (SaleError.repeatedOption(group: "ice", option: "less"), 422, "repeated_option"),
        (SaleError.optionsRequired(group: "size", min: 1), 422, "options_required"),
        (SaleError.tooManyOptions(group: "ice", max: 1), 422, "too_many_options"),
        (SaleError.badQuantity, 422, "bad_quantity"),
        (SaleError.soldOut("kiwiJuice"), 409, "sold_out"),
        (SaleError.invalidGroup("size"), 422, "invalid_option_group"),
        (SaleError.priceOutOfRange(-1), 422, "price_out_of_range"),
        (SaleError.priceChanged(expected: 12_000, total: 13_000), 409, "price_changed"),
        (SaleError.notEnoughCash(total: 13_000, received: 10_000), 422, "not_enough_cash"),
        (SaleError.badPayment, 422, "bad_payment"),
        (SaleError.alreadyPaid(order: 7), 409, "already_paid"),
        (SaleError.orderCancelled(order: 7), 409, "order_cancelled"),
        (OutOfStock(juice: "strawberryJuice", shortages: [Shortage(fruit: "strawberry", needed: 16, available: 10)]),
         409, "out_of_stock"),
        (VendingError.invalidDenomination(50), 422, "invalid_amount"),
        (VendingError.balanceCapExceeded(balance: 49_300, amount: 5_000), 409, "balance_cap"),
        (VendingError.insufficientBalance(price: 1_300, balance: 0), 409, "insufficient_balance"),
        (VendingError.soldOut("bananaMilk"), 409, "sold_out"),
        (VendingError.expired("bananaMilk"), 409, "expired"),
        (VendingError.unknownProduct("water"), 404, "unknown_product"),
        (VendingError.invalidCount(5_000), 422, "invalid_count"),
        (ContentError.missingTitle, 422, "missing_title"),
        (ContentError.invalidText(field: "title"), 422, "invalid_text"),
        (ContentError.invalidText(field: "body"), 422, "invalid_text"),
        (ContentError.tooLong(field: "title", limit: 100), 422, "too_long"),
        (ContentError.tooLong(field: "body", limit: 5_000), 422, "too_long"),
        (ContentError.invalidDay("tomorrow"), 422, "invalid_date"),
        (ContentError.endsBeforeItStarts, 422, "invalid_period"),
        (ContentError.unsupportedImage, 422, "unsupported_image"),
        (ContentError.imageTooLarge(bytes: 3_000_000), 422, "image_too_large"),
        (OrderError.unknownOrder(12), 404, "not_found"),
        (OrderError.cannotMove(from: .ready, to: .making), 409, "invalid_transition"),
        (OrderError.cannotCancel(.making), 409, "cannot_cancel"),
        (DayCloseError.alreadyClosed(day: "2026-11-25"), 409, "day_already_closed"),
        (DayCloseError.unknownReport("7"), 404, "not_found"),
        (ShopSettingError.unknownTimeZone("Mars/Olympus_Mons"), 422, "unknown_time_zone"),
        (ShopSettingError.ordersQueued(day: "2026-11-26", count: 2), 409, "orders_queued"),
        (ShopInfoError.nameRequired, 422, "name_required"),
        (ShopInfoError.notOneLine(field: "address"), 422, "invalid_text"),
        (ShopInfoError.tooLong(field: "name", limit: 40), 422, "too_long"),
        (ShopInfoError.malformedBusinessNumber("123-4567"), 422, "bad_business_number"),
        (ShopInfoError.wrongCheckDigit("123-45-67890"), 422, "bad_business_number"),
        (ShopInfoError.badPhone("call me"), 422, "bad_phone"),
        (OrderError.notYours(12), 403, "forbidden"),
        (OrderError.unknownStatus("done"), 422, "invalid_status"),
        (APIError(.badRequest, "invalid_idempotency_key", .invalidIdempotencyKey), 400, "invalid_idempotency_key"),
        (APIError(.unprocessableContent, "idempotency_key_reused", .idempotencyKeyReused), 422, "idempotency_key_reused"),
        (APIError(.conflict, "request_in_progress", .requestInProgress), 409, "request_in_progress"),
        (AccountError.invalidUsername("Jimin!"), 422, "invalid_username"),
        (AccountError.passwordTooShort, 422, "password_too_short"),
        (AccountError.passwordTooLong, 422, "password_too_long"),
        (AccountError.nameTooLong, 422, "name_too_long"),
        (AccountError.invalidText(field: "name"), 422, "invalid_text"),
        (AccountError.invalidText(field: "password"), 422, "invalid_text"),
        (AccountError.usernameTaken("jimin"), 409, "username_taken"),
        (APIError.unauthorized, 401, "unauthorized"),
        (APIError.forbidden, 403, "forbidden"),
        (APIError.invalidCredentials, 401, "invalid_credentials"),
        (APIError.passwordNotSet, 401, "password_not_set"),
        (APIError.tooManyAttempts(retryAfter: 29.5), 429, "too_many_attempts"),
        (APIError.busy, 503, "busy"),
        (APIError.notFound(.noSuchEvent), 404, "not_found"),
        (APIError.notFound(.noSuchImage), 404, "not_found"),
        // What the multipart parser may throw past its missing fields; no request here reaches it.
        (APIError(.badRequest, "invalid_body", .invalidForm), 400, "invalid_body"),
        // A JSON value of the right type the route cannot read; no route here has such a field yet.
        (Request.describe(.dataCorrupted(.init(codingPath: [JSONKey("status")], debugDescription: "not a status"))),
         400, "invalid_body"),
        (HTTPError(.notFound), 404, "not_found"),
        (HTTPError(.methodNotAllowed), 405, "method_not_allowed"),
        (HTTPError(.contentTooLarge), 413, "too_large"),
        (HTTPError(.badRequest), 400, "bad_request"),
        (StorageError.busy("the write lock was held too long"), 503, "busy"),
        (StorageError.full, 503, "storage_full"),
        (StorageError.lost("the file was replaced"), 503, "storage_lost"),
        (StorageError.unavailable("the connection broke during the commit"), 503, "storage_unavailable"),
        (CancellationError(), 500, "internal"),
    ]

    struct JSONKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The refusal's code and message as the API answers it in `language`.
    static func said(_ error: any Error, in language: Language) throws -> (code: String, message: String) {
        let body = APIError(error).body(in: language, menu: .seed)
        guard case .string(let code) = body["error"], case .string(let message) = body["message"] else {
            throw CocoaError(.coderValueNotFound)
        }
        return (code, message)
    }

    @Test(arguments: 0..<refusals.count)
    func everyRefusalIsSaidInBothLanguages(index: Int) throws {
        let (refusal, status, code) = Self.refusals[index]
        #expect(APIError(refusal).status.code == status, "\(refusal)")
        let korean = try Self.said(refusal, in: .ko)
        let english = try Self.said(refusal, in: .en)
        #expect(korean.code == code && english.code == code, "\(refusal) is answered \(korean.code), not \(code)")
        #expect(Self.hasHangul(korean.message), "\(refusal) in Korean: \(korean.message)")
        #expect(Self.isEnglish(english.message), "\(refusal) in English: \(english.message)")
        for message in [korean.message, english.message] {
            #expect(Self.placeholders(message).isEmpty, "\(refusal) left a value unsaid: \(message)")
        }
    }

    @Test func everyMessageHasARefusalAboveOrARequestInTheServerTests() {
        let said = Set(Self.refusals.map { APIError($0.error).message.key })
        let saidByRequests = Set(Self.requestRefusals.map(\.key))
        // Said by the connection itself, below the routes (`requestTimeoutIsSaidInBothLanguages`).
        let saidByConnections: Set<MessageKey> = [.requestTimeout]
        // Said by the page a form without its anti-CSRF token gets (`CSRFTests`), in both languages.
        let saidByPages: Set<MessageKey> = [.formExpired]
        #expect(said.union(saidByRequests).union(saidByConnections).union(saidByPages) == Set(MessageKey.allCases),
                "a message nothing here says")
    }

    @Test func requestTimeoutIsSaidInBothLanguages() throws {
        for language in Language.allCases {
            let body = try JSONDecoder().decode([String: String].self, from: Data(RequestBodyDeadline.answer(in: language)))
            #expect(body["error"] == "request_timeout")
            let message = try #require(body["message"])
            #expect(language == .ko ? Self.hasHangul(message) : Self.isEnglish(message), "\(language): \(message)")
        }
    }

    @Test func messagesNameThingsByTheirNamesInTheirLanguage() throws {
        let shortage = OutOfStock(juice: "strawberryJuice", shortages: [Shortage(fruit: "strawberry", needed: 16, available: 10)])
        #expect(try Self.said(shortage, in: .ko).message == "딸기쥬스 재료가 모자라요. 딸기 16개 필요 · 지금 10개")
        #expect(try Self.said(shortage, in: .en).message == "Not enough fruit for Strawberry Juice (Strawberry: 16 needed · 10 left).")
        #expect(try Self.said(VendingError.soldOut("bananaMilk"), in: .ko).message == "바나나우유 품절이에요.")
        #expect(try Self.said(VendingError.soldOut("bananaMilk"), in: .en).message == "Banana Milk is sold out.")
        #expect(try Self.said(VendingError.balanceCapExceeded(balance: 49_300, amount: 5_000), in: .ko).message
                == "5,000원을 넣으면 잔액이 50,000원을 넘어요. 지금 잔액은 49,300원이에요.")
        #expect(try Self.said(ContentError.tooLong(field: "title", limit: 100), in: .ko).message == "제목: 100자까지 쓸 수 있어요.")
        #expect(try Self.said(VendingError.invalidDenomination(Int.min), in: .ko).message
                .hasPrefix("받지 않는 금액이에요: -9,223,372,036,854,775,808원."))
        #expect(try Self.said(ContentError.imageTooLarge(bytes: 3_000_000), in: .en).message
                == "The image is too large: at most 2,097,152 bytes are taken, this one is 3,000,000.")
    }

    /// Whether `text` is the message `key` in `language`, whatever values fill it.
    static func says(_ text: String, _ key: MessageKey, in language: Language) -> Bool {
        let template = Words.of(language).messages[key] ?? ""
        let literals = template.replacingOccurrences(of: #"\{[a-z]+\}"#, with: "\u{0}", options: .regularExpression)
            .split(separator: "\u{0}", omittingEmptySubsequences: false)
        let pattern = "^" + literals.map { NSRegularExpression.escapedPattern(for: String($0)) }.joined(separator: ".*") + "$"
        return text.range(of: pattern, options: .regularExpression) != nil
    }

    struct RequestRefusal {
        let method: HTTPRequest.Method
        let uri: String
        var body: String? = nil
        var contentType: String? = "application/json"
        var asStaff = false
        /// Signed in as staff, but without the session's anti-CSRF token.
        var withoutToken = false
        var origin: String? = nil
        let code: String
        let key: MessageKey
    }

    /// Requests the server refuses before any rule of the shop is asked.
    static let requestRefusals: [RequestRefusal] = [
        .init(method: .post, uri: "/api/orders", body: "{\"juice\":", code: "bad_json", key: .badJSON),
        .init(method: .post, uri: "/api/orders", body: "{}", code: "invalid_body", key: .missingField),
        .init(method: .post, uri: "/api/orders", body: "{\"juice\":42}", code: "invalid_body", key: .wrongType),
        .init(method: .post, uri: "/api/orders", body: "{\"juice\":null}", code: "invalid_body", key: .missingField),
        .init(method: .post, uri: "/api/orders", body: "{\"juice\":\"" + String(repeating: "a", count: 70_000) + "\"}",
              code: "too_large", key: .tooLarge),
        .init(method: .post, uri: "/api/orders", body: "{\"juice\":\"strawberryJuice\"}", origin: "https://evil.example",
              code: "cross_site", key: .crossSite),
        .init(method: .post, uri: "/api/vending/stock", body: "{\"product\":\"cola\",\"count\":1,\"manufactured\":\"tomorrow\"}",
              asStaff: true, code: "invalid_date", key: .invalidDate),
        .init(method: .post, uri: "/api/vending/stock", body: "{\"product\":\"cola\",\"count\":\"many\"}", asStaff: true,
              code: "invalid_body", key: .wrongType),
        .init(method: .post, uri: "/api/news", body: "{}", asStaff: true, code: "not_multipart", key: .notMultipart),
        .init(method: .post, uri: "/api/news", body: "", contentType: "multipart/form-data; boundary=", asStaff: true,
              code: "not_multipart", key: .invalidBoundary),
        .init(method: .post, uri: "/api/news", body: "--b\r\nContent-Disposition: form-data; name=\"body\"\r\n\r\nhi\r\n--b--\r\n",
              contentType: "multipart/form-data; boundary=b", asStaff: true, code: "invalid_body", key: .missingField),
        .init(method: .get, uri: "/api/vending/history?limit=0", contentType: nil, code: "invalid_limit", key: .invalidLimit),
        .init(method: .delete, uri: "/api/orders", contentType: nil, code: "method_not_allowed", key: .methodNotAllowed),
        .init(method: .get, uri: "/api/nothing-here", contentType: nil, code: "not_found", key: .notFound),
        .init(method: .put, uri: "/api/stock/strawberry", body: "{\"count\":1}", code: "unauthorized", key: .unauthorized),
        .init(method: .put, uri: "/api/stock/dragonfruit", body: "{\"count\":1}", asStaff: true, code: "not_found", key: .unknownFruit),
        .init(method: .put, uri: "/api/stock/kiwi", body: "{\"count\":1}", withoutToken: true, code: "csrf_token", key: .csrfToken),
    ]

    /// A request's own refusals, through the server: each answered in the language the request
    /// asks for (`?lang`, the language cookie, `Accept-Language`, else Korean).
    @Test func requestRefusalsFollowTheRequestsLanguage() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            for refusal in Self.requestRefusals {
                for (asking, language) in [("ko-KR,ko;q=0.9", Language.ko), ("en-US,en;q=0.9", .en)] {
                    var fields: HTTPFields = [.acceptLanguage: asking]
                    if let contentType = refusal.contentType { fields[.contentType] = contentType }
                    if refusal.asStaff { fields.signIn(staff) }
                    if refusal.withoutToken { fields[.cookie] = staff; fields[.secFetchSite] = "same-origin" }
                    if let origin = refusal.origin { fields[.origin] = origin }
                    let answer = try await client.execute(uri: refusal.uri, method: refusal.method, headers: fields,
                                                          body: refusal.body.map { ByteBuffer(string: $0) }) { $0 }
                    let said = try answer.decode(ErrorBody.self)
                    #expect(said.error == refusal.code, "\(refusal.method) \(refusal.uri): \(said.message)")
                    #expect(Self.says(said.message, refusal.key, in: language),
                            "\(refusal.method) \(refusal.uri) in \(language) is not \(refusal.key): \(said.message)")
                }
            }
            let viaQuery = try await client.json(.post, "/api/orders?lang=en", "{}", headers: [.acceptLanguage: "ko"])
            #expect(try viaQuery.decode(ErrorBody.self).message == "'lines' is required.")
            let viaCookie = try await client.json(.post, "/api/orders", "{}", headers: [.cookie: "juicemaker_lang=en"])
            #expect(try viaCookie.decode(ErrorBody.self).message == "'lines' is required.")
            let byDefault = try await client.json(.post, "/api/orders", "{}")
            #expect(try byDefault.decode(ErrorBody.self).message == "'lines' 항목이 필요해요.")
        }
    }

    @Test(arguments: Language.allCases)
    func everyProductIsDescribedInOneLineInEachLanguage(language: Language) {
        for product in Catalog.products {
            let line = ProductDescription.of(product, in: language)
            #expect(!line.contains("\n") && !line.contains("{"), "\(line)")
            #expect(line.contains(product.name[language]) && line.contains(Won.format(product.price)), "\(line)")
        }
        let bananaMilk = Catalog.products[2]
        #expect(ProductDescription.of(bananaMilk, in: .ko) == "바나나우유 (빙그레) 240ml 1,700원 · 우유: 빙그레 남양주목장, 지방 3.4% · 바나나맛")
        #expect(ProductDescription.of(bananaMilk, in: .en)
                == "Banana Milk (빙그레) 240ml 1,700원 · Milk: 빙그레 남양주목장, 3.4% fat · banana")
    }

    @Test func aValueIsNeverReadForPlaceholdersOfItsOwn() {
        #expect("{name}님, {juice}".filling(["name": "{juice}", "juice": "딸바쥬스"]) == "{juice}님, 딸바쥬스")
        #expect("{unknown} stays".filling([:]) == "{unknown} stays")
    }
}
