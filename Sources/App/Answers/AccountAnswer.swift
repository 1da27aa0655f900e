import Membership

/// An account as the API shows it (`GET /api/me`) and `users list --json` prints it: no password, no dates.
public struct AccountAnswer: Encodable, Sendable {
    public let id: Int64
    public let username: String
    public let name: String
    public let role: Role

    public init(_ account: Account) {
        id = account.id
        username = account.username
        name = account.name
        role = account.role
    }
}
