import Foundation
import Hummingbird
import HummingbirdTesting
import JuiceBar
import Membership
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

    @Test func bothTablesNameTheSameFieldsAndKinds() {
        #expect(Set(Words.korean.fields.keys) == Set(Words.english.fields.keys))
        #expect(Set(Words.korean.kinds.keys) == Set(ValueKind.allCases))
        #expect(Set(Words.english.kinds.keys) == Set(ValueKind.allCases))
        for (field, korean) in Words.korean.fields { #expect(Self.hasHangul(korean), "field \(field): \(korean)") }
    }

    /// One of each refusal the API can answer with, and the server's own troubles.
    static let refusals: [any Error] = [
        JuiceBarError.unknownFruit("dragonfruit"), JuiceBarError.unknownJuice("lemonJuice"), JuiceBarError.notANumber("many"),
        JuiceBarError.countOutOfRange(-1), JuiceBarError.amountOutOfRange(0), JuiceBarError.invalidIdentifier("1x"),
        JuiceBarError.duplicate("kiwi"), JuiceBarError.emptyName, JuiceBarError.invalidText("name"),
        JuiceBarError.invalidText("emoji"), JuiceBarError.emptyRecipe,
        OutOfStock(juice: "strawberryJuice", shortages: [Shortage(fruit: "strawberry", needed: 16, available: 10)]),
        VendingError.invalidDenomination(50), VendingError.balanceCapExceeded(balance: 49_300, amount: 5_000),
        VendingError.insufficientBalance(price: 1_300, balance: 0), VendingError.soldOut("bananaMilk"),
        VendingError.expired("bananaMilk"), VendingError.unknownProduct("water"), VendingError.invalidCount(5_000),
        ContentError.missingTitle, ContentError.invalidText(field: "title"), ContentError.invalidText(field: "body"),
        ContentError.tooLong(field: "title", limit: 100), ContentError.tooLong(field: "body", limit: 5_000),
        ContentError.invalidDay("tomorrow"), ContentError.endsBeforeItStarts, ContentError.unsupportedImage,
        ContentError.imageTooLarge(bytes: 3_000_000),
        AccountError.invalidUsername("Jimin!"), AccountError.passwordTooShort, AccountError.passwordTooLong,
        AccountError.nameTooLong, AccountError.invalidText(field: "name"), AccountError.invalidText(field: "password"),
        AccountError.usernameTaken("jimin"),
        APIError.unauthorized, APIError.forbidden, APIError.invalidCredentials, APIError.tooManyAttempts(retryAfter: 29.5),
        APIError.busy, APIError.notFound(.noSuchEvent), APIError.notFound(.noSuchImage),
        // What the multipart parser may throw past its missing fields; no request here reaches it.
        APIError(.badRequest, "invalid_body", .invalidForm),
        HTTPError(.notFound), HTTPError(.methodNotAllowed), HTTPError(.contentTooLarge), HTTPError(.badRequest),
        StorageError.busy("the write lock was held too long"), StorageError.full, StorageError.lost("the file was replaced"),
        CancellationError(),
    ]

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
        let refusal = Self.refusals[index]
        let korean = try Self.said(refusal, in: .ko)
        let english = try Self.said(refusal, in: .en)
        #expect(korean.code == english.code, "the code must not depend on the language")
        #expect(Self.hasHangul(korean.message), "\(refusal) in Korean: \(korean.message)")
        #expect(Self.isEnglish(english.message), "\(refusal) in English: \(english.message)")
        for message in [korean.message, english.message] {
            #expect(Self.placeholders(message).isEmpty, "\(refusal) left a value unsaid: \(message)")
        }
    }

    @Test func everyMessageHasARefusalAboveOrARequestInTheServerTests() {
        let said = Set(Self.refusals.map { APIError($0).message.key })
        let saidByRequests: Set<MessageKey> = [
            .crossSite, .notMultipart, .invalidBoundary, .tooLarge, .badJSON, .missingField, .wrongType, .invalidValue,
            .invalidLimit, .invalidDate,
        ]
        #expect(said.union(saidByRequests) == Set(MessageKey.allCases), "a message nothing here says")
    }

    @Test func messagesNameThingsByTheirNamesInTheirLanguage() throws {
        let shortage = OutOfStock(juice: "strawberryJuice", shortages: [Shortage(fruit: "strawberry", needed: 16, available: 10)])
        #expect(try Self.said(shortage, in: .ko).message == "딸기쥬스 재료가 모자라요. 딸기 16개 필요 · 지금 10개")
        #expect(try Self.said(shortage, in: .en).message == "Not enough fruit for Strawberry Juice: Strawberry: 16 needed · 10 left.")
        #expect(try Self.said(VendingError.soldOut("bananaMilk"), in: .ko).message == "바나나우유 품절이에요.")
        #expect(try Self.said(VendingError.soldOut("bananaMilk"), in: .en).message == "Banana Milk is sold out.")
        #expect(try Self.said(VendingError.balanceCapExceeded(balance: 49_300, amount: 5_000), in: .ko).message
                == "5,000원을 넣으면 잔액이 50,000원을 넘어요. 지금 잔액은 49,300원이에요.")
        #expect(try Self.said(ContentError.tooLong(field: "title", limit: 100), in: .ko).message == "제목: 100자까지 쓸 수 있어요.")
    }

    /// A request's own refusals, through the server: each answered in the language the request
    /// asks for (`?lang`, the language cookie, `Accept-Language`, else Korean).
    @Test func requestRefusalsFollowTheRequestsLanguage() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let json: HTTPFields = [.contentType: "application/json"]
            let staffJSON: HTTPFields = [.contentType: "application/json", .cookie: staff]
            func staffForm(_ contentType: String) -> HTTPFields { [.contentType: contentType, .cookie: staff] }
            let oversized = "{\"juice\":\"" + String(repeating: "a", count: 70_000) + "\"}"
            let requests: [(HTTPRequest.Method, String, String?, HTTPFields, String)] = [
                (.post, "/api/orders", "{\"juice\":", json, "bad_json"),
                (.post, "/api/orders", "{}", json, "invalid_body"),
                (.post, "/api/orders", "{\"juice\":42}", json, "invalid_body"),
                (.post, "/api/orders", "{\"juice\":null}", json, "invalid_body"),
                (.post, "/api/orders", oversized, json, "too_large"),
                (.post, "/api/orders", "{\"juice\":\"strawberryJuice\"}", [.contentType: "application/json", .origin: "https://evil.example"], "cross_site"),
                (.post, "/api/vending/stock", "{\"product\":\"cola\",\"count\":1,\"manufactured\":\"tomorrow\"}", staffJSON, "invalid_date"),
                (.post, "/api/vending/stock", "{\"product\":\"cola\",\"count\":\"many\"}", staffJSON, "invalid_body"),
                (.post, "/api/news", "{}", staffJSON, "not_multipart"),
                (.post, "/api/news", "", staffForm("multipart/form-data; boundary="), "not_multipart"),
                (.post, "/api/news", "--b\r\nContent-Disposition: form-data; name=\"body\"\r\n\r\nhi\r\n--b--\r\n",
                 staffForm("multipart/form-data; boundary=b"), "invalid_body"),
                (.post, "/api/news", "--b\r\nbroken", staffForm("multipart/form-data; boundary=b"), "invalid_body"),
                (.get, "/api/vending/history?limit=0", nil, [:], "invalid_limit"),
                (.delete, "/api/orders", nil, [:], "method_not_allowed"),
                (.get, "/api/nothing-here", nil, [:], "not_found"),
                (.put, "/api/stock/strawberry", "{\"count\":1}", json, "unauthorized"),
            ]
            for (method, uri, body, headers, code) in requests {
                for (asking, language) in [("ko-KR,ko;q=0.9", Language.ko), ("en-US,en;q=0.9", .en)] {
                    var fields = headers
                    fields[.acceptLanguage] = asking
                    let answer = try await client.execute(uri: uri, method: method, headers: fields,
                                                          body: body.map { ByteBuffer(string: $0) }) { $0 }
                    let said = try answer.decode(ErrorBody.self)
                    #expect(said.error == code, "\(method) \(uri): \(said.message)")
                    #expect(language == .ko ? Self.hasHangul(said.message) : Self.isEnglish(said.message), "\(method) \(uri) in \(language): \(said.message)")
                }
            }
            let viaQuery = try await client.json(.post, "/api/orders?lang=en", "{}", headers: [.acceptLanguage: "ko"])
            #expect(try viaQuery.decode(ErrorBody.self).message == "'juice' is required.")
            let viaCookie = try await client.json(.post, "/api/orders", "{}", headers: [.cookie: "juicemaker_lang=en"])
            #expect(try viaCookie.decode(ErrorBody.self).message == "'juice' is required.")
            let byDefault = try await client.json(.post, "/api/orders", "{}")
            #expect(try byDefault.decode(ErrorBody.self).message == "'juice' 항목이 필요해요.")
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
