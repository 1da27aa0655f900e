import Foundation

/// The shop as its receipts (영수증) name it: its name, 사업자등록번호, address and phone. Every
/// value is checked and written the one way the shop prints it; a field the shop has not given is
/// nil. A shop that never set its info has `unset`: its name `JuiceMaker`, nothing else.
public struct ShopInfo: Hashable, Sendable {
    public let name: String
    public let businessNumber: BusinessNumber?
    public let address: String?
    public let phone: String?

    /// What a shop that never set its info shows.
    public static let unset = ShopInfo(checkedName: "JuiceMaker", businessNumber: nil, address: nil, phone: nil)

    /// The longest name and address taken, in characters: a line or two of an 80 mm receipt.
    public static let nameLimit = 40
    public static let addressLimit = 100
    /// How many digits a phone number has: `1588-1234` has 8, `0505-123-4567` 11.
    public static let phoneDigits = 8...12

    /// Checks and tidies what a person typed: text trimmed of surrounding spaces, the business
    /// number written `123-45-67890`. An empty business number, address or phone is none.
    public init(name: String, businessNumber: String? = nil, address: String? = nil, phone: String? = nil)
        throws(ShopInfoError) {
        let name = name.trimmed
        guard !name.isEmpty else { throw .nameRequired }
        try Self.checkLine(name, field: "name", limit: Self.nameLimit)
        let address = address?.trimmed.nonEmpty
        if let address { try Self.checkLine(address, field: "address", limit: Self.addressLimit) }
        let phone = phone?.trimmed.nonEmpty
        if let phone, !Self.isPhoneNumber(phone) { throw .badPhone(phone) }
        let businessNumber = try businessNumber?.trimmed.nonEmpty.map { text throws(ShopInfoError) in try BusinessNumber(text) }
        self.init(checkedName: name, businessNumber: businessNumber, address: address, phone: phone)
    }

    /// The info as stored (no name: never set), each field read on its own. Only what `init`
    /// took is stored; a field written behind the shop's back that it would refuse is read as not
    /// given (a name as `unset`'s), rather than stopping every receipt.
    public init(stored name: String?, businessNumber: String?, address: String?, phone: String?) {
        let named = name.flatMap { try? ShopInfo(name: $0) } ?? .unset
        func kept(_ edit: ShopInfoEdit) -> ShopInfo? { try? edit.applied(to: named) }
        self.init(checkedName: named.name,
                  businessNumber: businessNumber.flatMap { kept(ShopInfoEdit(businessNumber: $0))?.businessNumber },
                  address: address.flatMap { kept(ShopInfoEdit(address: $0))?.address },
                  phone: phone.flatMap { kept(ShopInfoEdit(phone: $0))?.phone })
    }

    private init(checkedName name: String, businessNumber: BusinessNumber?, address: String?, phone: String?) {
        (self.name, self.businessNumber, self.address, self.phone) = (name, businessNumber, address, phone)
    }

    /// Each field is one line of a receipt: no line breaks, tabs or other control characters
    /// (NUL among them, as `WrittenText` refuses everywhere).
    private static func checkLine(_ text: String, field: String, limit: Int) throws(ShopInfoError) {
        guard !text.unicodeScalars.contains(where: \.breaksALine) else {
            throw .notOneLine(field: field)
        }
        guard text.count <= limit else { throw .tooLong(field: field, limit: limit) }
    }

    /// Digits in groups joined by single dashes, as Korean numbers are written: `02-123-4567`.
    private static func isPhoneNumber(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
            && phoneDigits.contains(groups.reduce(0) { $0 + $1.count })
    }
}

extension ShopInfo: Encodable {
    private enum CodingKeys: String, CodingKey { case name, businessNumber, address, phone }

    /// Every field, `null` when the shop has not given it, so a reader always finds the keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(businessNumber?.description, forKey: .businessNumber)
        try container.encode(address, forKey: .address)
        try container.encode(phone, forKey: .phone)
    }
}

/// A change of the shop's info (`juicemaker shop info --name …`, `PATCH /api/shop`): each field
/// given replaces the shop's own, the rest stay; an empty business number, address or phone
/// clears it.
public struct ShopInfoEdit: Hashable, Codable, Sendable {
    public var name: String?
    public var businessNumber: String?
    public var address: String?
    public var phone: String?

    public init(name: String? = nil, businessNumber: String? = nil, address: String? = nil, phone: String? = nil) {
        (self.name, self.businessNumber, self.address, self.phone) = (name, businessNumber, address, phone)
    }

    /// Whether the edit changes nothing.
    public var isEmpty: Bool { self == ShopInfoEdit() }

    /// `info` with this edit applied, checked whole.
    public func applied(to info: ShopInfo) throws(ShopInfoError) -> ShopInfo {
        try ShopInfo(name: name ?? info.name, businessNumber: businessNumber ?? info.businessNumber?.description,
                     address: address ?? info.address, phone: phone ?? info.phone)
    }
}

/// A Korean business registration number (사업자등록번호): 10 digits written `123-45-67890`, the
/// last a check digit over the nine before it, so a mistyped digit is caught when it is entered.
public struct BusinessNumber: Hashable, Sendable, CustomStringConvertible {
    /// The ten digits, without dashes.
    public let digits: String

    /// Takes `123-45-67890` or `1234567890`; refuses any other shape, and a wrong check digit.
    public init(_ text: String) throws(ShopInfoError) {
        let characters = Array(text)
        let dashed = characters.count == 12 && characters[3] == "-" && characters[6] == "-"
        let plain = dashed ? characters.filter { $0 != "-" } : characters
        guard plain.count == 10, plain.allSatisfy(\.isASCIIDigit) else { throw .malformedBusinessNumber(text) }
        let digits = plain.compactMap(\.wholeNumberValue)
        guard Self.checkDigit(of: digits.prefix(9)) == digits[9] else { throw .wrongCheckDigit(text) }
        self.digits = String(plain)
    }

    /// The check digit of the first nine: each times 1, 3, 7, 1, 3, 7, 1, 3, 5, summed, plus the
    /// tens of the ninth times 5; the digit that takes the sum up to a multiple of 10.
    static func checkDigit(of first9: ArraySlice<Int>) -> Int {
        let weights = [1, 3, 7, 1, 3, 7, 1, 3, 5]
        let ninth = first9[first9.startIndex + 8]
        let sum = zip(first9, weights).reduce(0) { $0 + $1.0 * $1.1 } + ninth * 5 / 10
        return (10 - sum % 10) % 10
    }

    /// `123-45-67890`, as receipts and the tax office write it.
    public var description: String {
        let characters = Array(digits)
        return String(characters[0..<3]) + "-" + String(characters[3..<5]) + "-" + String(characters[5...])
    }
}

/// Why the shop's info was refused; what each says to a person is in the App's word tables.
public enum ShopInfoError: Error, Hashable, Sendable {
    case nameRequired
    /// A line break, tab or other control character in `field`.
    case notOneLine(field: String)
    case tooLong(field: String, limit: Int)
    /// Not 10 digits, alone or as `123-45-67890`.
    case malformedBusinessNumber(String)
    /// 10 digits whose last is not the check digit of the others: a typo.
    case wrongCheckDigit(String)
    /// Not digits in groups joined by dashes, 8–12 digits in all.
    case badPhone(String)

    /// A short machine-readable code: the API's `error` field.
    public var code: String {
        switch self {
        case .nameRequired: "name_required"
        case .notOneLine: "invalid_text"
        case .tooLong: "too_long"
        case .malformedBusinessNumber, .wrongCheckDigit: "bad_business_number"
        case .badPhone: "bad_phone"
        }
    }
}

private extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
    var nonEmpty: String? { isEmpty ? nil : self }
}

private extension Unicode.Scalar {
    /// A control character (line feed, tab, NUL…) or a line or paragraph separator.
    var breaksALine: Bool {
        [.control, .lineSeparator, .paragraphSeparator].contains(properties.generalCategory)
    }
}

private extension Character {
    /// 0–9 only: `isNumber` takes other scripts' digits and fractions too.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
