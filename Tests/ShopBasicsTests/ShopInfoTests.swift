import Foundation
@testable import ShopBasics
import Testing

/// The shop's receipt header: a 사업자등록번호 is taken only with its check digit right, and
/// every field is one tidy line.
@Suite struct ShopInfoTests {
    /// Numbers whose check digit is right, as registered companies' are (Samsung Electronics
    /// 124-81-00998, among them) and as computed by the rule for made-up first nine digits.
    static let validNumbers = ["124-81-00998", "220-81-62517", "120-81-47521", "123-45-67891", "101-01-11113"]

    @Test(arguments: validNumbers)
    func aNumberWithItsCheckDigitIsTakenWithOrWithoutDashes(_ number: String) throws {
        let dashed = try BusinessNumber(number)
        let plain = try BusinessNumber(number.replacingOccurrences(of: "-", with: ""))
        #expect(dashed == plain)
        #expect(plain.description == number)
        #expect(plain.digits == number.replacingOccurrences(of: "-", with: ""))
    }

    /// Every other last digit of each valid number is a typo the check digit catches.
    @Test(arguments: validNumbers)
    func everyOtherLastDigitIsRefused(_ number: String) {
        let valid = number.last!.wholeNumberValue!
        for digit in (0...9).filter({ $0 != valid }) {
            let typo = String(number.dropLast()) + String(digit)
            #expect(throws: ShopInfoError.wrongCheckDigit(typo)) { try BusinessNumber(typo) }
        }
    }

    /// The rule, from its parts: weights 1 3 7 1 3 7 1 3 5, the ninth digit's ×5 tens added,
    /// and the digit that takes the sum up to a multiple of ten.
    @Test func theCheckDigitFollowsTheRule() {
        // 1·1 + 2·3 + 3·7 + 4·1 + 5·3 + 6·7 + 7·1 + 8·3 + 9·5 = 165, + ⌊9·5/10⌋ = 4: 169, check 1.
        #expect(BusinessNumber.checkDigit(of: [1, 2, 3, 4, 5, 6, 7, 8, 9]) == 1)
        // 1 + 0 + 7 + 0 + 3 + 7 + 1 + 3 + 5 = 27, + 0: check 3.
        #expect(BusinessNumber.checkDigit(of: [1, 0, 1, 0, 1, 1, 1, 1, 1]) == 3)
        // A sum that is a multiple of ten already: check 0. 1·1 + 0 + 0 + … + 9·5 = 46, + 4 = 50.
        #expect(BusinessNumber.checkDigit(of: [1, 0, 0, 0, 0, 0, 0, 0, 9]) == 0)
        #expect(throws: Never.self) { try BusinessNumber("100-00-00090") }
    }

    @Test(arguments: ["123-45-6789", "12345678901", "12-345-67890", "123-4567890", "123 45 67890", "123-45-6789O",
                      "١٢٣٤٥٦٧٨٩١", "", "-123456789"])
    func anythingButTenDigitsAloneOrDashedAsUsualIsRefused(_ text: String) {
        #expect(throws: ShopInfoError.malformedBusinessNumber(text)) { try BusinessNumber(text) }
    }

    @Test func theInfoIsTidiedAndEmptyFieldsAreNone() throws {
        let info = try ShopInfo(name: "  쥬스메이커 강남점 ", businessNumber: " 1248100998 ",
                                address: "서울특별시 강남구 테헤란로 1", phone: "02-123-4567")
        #expect(info.name == "쥬스메이커 강남점")
        #expect(info.businessNumber?.description == "124-81-00998")
        #expect(info.address == "서울특별시 강남구 테헤란로 1")
        #expect(info.phone == "02-123-4567")
        let bare = try ShopInfo(name: "JuiceMaker", businessNumber: "", address: "  ", phone: "")
        #expect(bare == .unset)
        #expect(bare.businessNumber == nil && bare.address == nil && bare.phone == nil)
    }

    @Test func theNameIsRequiredAndEachFieldIsOneLineOfItsLength() {
        #expect(throws: ShopInfoError.nameRequired) { try ShopInfo(name: " \n ") }
        #expect(throws: ShopInfoError.tooLong(field: "name", limit: 40)) { try ShopInfo(name: String(repeating: "가", count: 41)) }
        #expect(throws: Never.self) { try ShopInfo(name: String(repeating: "가", count: 40)) }
        #expect(throws: ShopInfoError.notOneLine(field: "name")) { try ShopInfo(name: "쥬스\n메이커") }
        #expect(throws: ShopInfoError.notOneLine(field: "name")) { try ShopInfo(name: "쥬스\u{0}메이커") }
        #expect(throws: ShopInfoError.notOneLine(field: "address")) { try ShopInfo(name: "J", address: "서울\t강남") }
        #expect(throws: ShopInfoError.notOneLine(field: "address")) { try ShopInfo(name: "J", address: "서울\u{2028}강남") }
        #expect(throws: ShopInfoError.tooLong(field: "address", limit: 100)) {
            try ShopInfo(name: "J", address: String(repeating: "a", count: 101))
        }
    }

    @Test(arguments: ["02-123-4567", "010-1234-5678", "1588-1234", "0505-123-4567", "021234567"])
    func aPhoneIsDigitsInDashedGroups(_ phone: String) throws {
        #expect(try ShopInfo(name: "J", phone: phone).phone == phone)
    }

    @Test(arguments: ["02-12-345", "+82-2-123-4567", "02--123-4567", "-02-123-4567", "02-123-4567-", "(02) 123-4567",
                      "02 123 4567", "0505-1234-56789", "call me"])
    func anyOtherPhoneIsRefused(_ phone: String) {
        #expect(throws: ShopInfoError.badPhone(phone)) { try ShopInfo(name: "J", phone: phone) }
    }

    @Test func anEditChangesTheFieldsItGivesAndAnEmptyOneClears() throws {
        let info = try ShopInfo(name: "쥬스메이커", businessNumber: "124-81-00998", address: "서울", phone: "02-123-4567")
        let renamed = try ShopInfoEdit(name: "쥬스메이커 2호점").applied(to: info)
        #expect(renamed == (try ShopInfo(name: "쥬스메이커 2호점", businessNumber: "1248100998", address: "서울", phone: "02-123-4567")))
        let cleared = try ShopInfoEdit(address: "", phone: "").applied(to: info)
        #expect(cleared.address == nil && cleared.phone == nil && cleared.businessNumber == info.businessNumber)
        #expect(throws: ShopInfoError.wrongCheckDigit("124-81-00999")) {
            try ShopInfoEdit(businessNumber: "124-81-00999").applied(to: info)
        }
        #expect(throws: ShopInfoError.nameRequired) { try ShopInfoEdit(name: "").applied(to: info) }
        #expect(ShopInfoEdit().isEmpty && !ShopInfoEdit(phone: "").isEmpty)
    }

    /// A row written behind the shop's back keeps what is valid; the rest reads as not given.
    @Test func storedFieldsAreReadEachOnItsOwn() throws {
        #expect(ShopInfo(stored: nil, businessNumber: nil, address: nil, phone: nil) == .unset)
        let kept = ShopInfo(stored: "쥬스메이커", businessNumber: "124-81-00999", address: "서울", phone: "not a phone")
        #expect(kept == (try ShopInfo(name: "쥬스메이커", address: "서울")))
        #expect(ShopInfo(stored: "", businessNumber: "1248100998", address: nil, phone: nil).name == "JuiceMaker")
    }

    @Test func theJSONHasEveryFieldNullWhenNotGiven() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(ShopInfo.unset), as: UTF8.self)
                == #"{"address":null,"businessNumber":null,"name":"JuiceMaker","phone":null}"#)
        let info = try ShopInfo(name: "쥬스메이커", businessNumber: "1248100998")
        #expect(String(decoding: try encoder.encode(info), as: UTF8.self)
                == #"{"address":null,"businessNumber":"124-81-00998","name":"쥬스메이커","phone":null}"#)
    }
}
