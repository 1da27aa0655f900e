import App
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The shop's info for its receipts in the API: anyone reads it, staff change any of its fields,
/// and a refused value is answered in the reader's language with nothing changed.
@Suite struct ShopAPITests {
    struct Info: Decodable, Equatable {
        let name: String
        let businessNumber: String?
        let address: String?
        let phone: String?
    }

    @Test func anyoneReadsTheInfoAndStaffChangeTheFieldsTheyGive() async throws {
        try await TestShop().run { client in
            let unset = try await client.json(.get, "/api/shop")
            #expect(unset.status == .ok)
            #expect(unset.text == #"{"address":null,"businessNumber":null,"name":"JuiceMaker","phone":null}"#)

            let staff = try await client.staffCookie()
            let set = try await client.json(.patch, "/api/shop", """
                {"name":"쥬스메이커 강남점","businessNumber":"1248100998","address":"서울특별시 강남구 테헤란로 1","phone":"02-123-4567"}
                """, cookie: staff)
            #expect(set.status == .ok)
            let gangnam = Info(name: "쥬스메이커 강남점", businessNumber: "124-81-00998",
                               address: "서울특별시 강남구 테헤란로 1", phone: "02-123-4567")
            #expect(try set.decode(Info.self) == gangnam)
            #expect(try await client.json(.get, "/api/shop").decode(Info.self) == gangnam)

            let moved = try await client.json(.patch, "/api/shop", #"{"phone":""}"#, cookie: staff).decode(Info.self)
            #expect(moved == Info(name: gangnam.name, businessNumber: gangnam.businessNumber, address: gangnam.address, phone: nil))
        }
    }

    @Test func onlyStaffChangeTheInfo() async throws {
        try await TestShop().run { client in
            #expect(try await client.json(.patch, "/api/shop", #"{"name":"가게"}"#).status == .unauthorized)
            let member = try await client.memberCookie()
            #expect(try await client.json(.patch, "/api/shop", #"{"name":"가게"}"#, cookie: member).status == .forbidden)
            #expect(try await client.json(.get, "/api/shop").decode(Info.self).name == "JuiceMaker")
        }
    }

    @Test func aRefusedValueIsSaidInTheReadersLanguageAndChangesNothing() async throws {
        try await TestShop().run { client in
            let staff = try await client.staffCookie()
            let wrongDigit = try await client.json(.patch, "/api/shop", #"{"name":"새 가게","businessNumber":"124-81-00999"}"#,
                                                   cookie: staff)
            #expect(wrongDigit.status == .unprocessableContent)
            #expect(try wrongDigit.decode(ErrorBody.self) == ErrorBody(
                error: "bad_business_number",
                message: "사업자등록번호 124-81-00999의 마지막 자리(검증번호)가 맞지 않아요. 번호를 다시 확인해 주세요."))
            let english = try await client.json(.patch, "/api/shop?lang=en", #"{"businessNumber":"12-345"}"#, cookie: staff)
            #expect(try english.decode(ErrorBody.self) == ErrorBody(
                error: "bad_business_number",
                message: "A business registration number is 10 digits, as in 123-45-67890 (given: 12-345)."))
            let refusals: [(body: String, code: String)] = [
                (#"{"name":"  "}"#, "name_required"),
                (#"{"name":"\#(String(repeating: "가", count: 41))"}"#, "too_long"),
                (#"{"address":"서울\n강남"}"#, "invalid_text"),
                (#"{"phone":"02-123-4567 (내선 2)"}"#, "bad_phone"),
                (#"{"phone":12}"#, "invalid_body"),
            ]
            for (body, code) in refusals {
                let refused = try await client.json(.patch, "/api/shop", body, cookie: staff)
                #expect(refused.status.code / 100 == 4, "\(body)")
                #expect(try refused.decode(ErrorBody.self).error == code, "\(body)")
            }
            #expect(try await client.json(.get, "/api/shop").decode(Info.self).name == "JuiceMaker", "nothing changed")
        }
    }
}
