import struct Foundation.Date
import ShopBasics

/// What a signed-in person may do: members order; staff also edit stock, restock and post.
public enum Role: String, Codable, Sendable, CaseIterable {
    case member
    case staff
}

/// A person with an account at the shop.
public struct Account: Hashable, Codable, Sendable {
    public var id: Int64
    public var username: String
    public var name: String
    public var role: Role
    public var createdAt: Date
    /// False for a member who has only ever signed in through an outside provider (Kakao):
    /// a password sign-in is refused until they set one.
    public var hasPassword: Bool
    /// The issuers of the outside identities linked to this account (`https://kauth.kakao.com`), sorted.
    public var linkedIssuers: [String]

    public init(id: Int64, username: String, name: String, role: Role, createdAt: Date,
                hasPassword: Bool = true, linkedIssuers: [String] = []) {
        self.id = id
        self.username = username
        self.name = name
        self.role = role
        self.createdAt = createdAt
        self.hasPassword = hasPassword
        self.linkedIssuers = linkedIssuers
    }

    public var isStaff: Bool { role == .staff }
}

/// Why a sign-up is refused.
public enum AccountError: Error, Hashable, Sendable {
    case invalidUsername(String)
    case passwordTooShort
    case passwordTooLong
    case nameTooLong
    /// The field holds a character text may not (NUL).
    case invalidText(field: String)
    case usernameTaken(String)

    public var code: String {
        switch self {
        case .invalidUsername: "invalid_username"
        case .passwordTooShort: "password_too_short"
        case .passwordTooLong: "password_too_long"
        case .invalidText: "invalid_text"
        case .nameTooLong: "name_too_long"
        case .usernameTaken: "username_taken"
        }
    }
}

/// The rules a new account must meet.
public enum AccountRules {
    public static let minimumPasswordLength = 8
    public static let maximumNameLength = 50
    /// bcrypt reads only this many bytes of a password; longer ones are refused, not cut short.
    public static let maximumPasswordBytes = 72

    /// 3 to 20 of a-z, 0-9 and _.
    public static func isValid(username: String) -> Bool {
        let allowed = username.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
        return (3...20).contains(username.utf8.count) && allowed
    }

    public static func validate(username: String, password: String, name: String) throws(AccountError) {
        guard isValid(username: username) else { throw .invalidUsername(username) }
        try validate(newPassword: password)
        guard WrittenText.isAcceptable(name) else { throw .invalidText(field: "name") }
        guard name.count <= maximumNameLength else { throw .nameTooLong }
    }

    /// What a password must be to be chosen, at sign-up or later.
    public static func validate(newPassword password: String) throws(AccountError) {
        try validate(password: password)
        guard password.count >= minimumPasswordLength else { throw .passwordTooShort }
    }

    /// What any password must be to be checked at all, at sign-up and at sign-in.
    public static func validate(password: String) throws(AccountError) {
        guard WrittenText.isAcceptable(password) else { throw .invalidText(field: "password") }
        guard password.utf8.count <= maximumPasswordBytes else { throw .passwordTooLong }
    }
}
