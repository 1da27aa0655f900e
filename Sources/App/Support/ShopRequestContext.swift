import Hummingbird
import Membership

/// What every request carries through the routes: who is signed in, if anyone.
public struct ShopRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in account, set by `SessionMiddleware`.
    public var account: Account?
    /// The session token the request came with, for signing out.
    public var sessionToken: String?
    /// The address the request came from: whose turn it is when work is shared out fairly.
    public let clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// The signed-in staff member, or the error that says who may do this.
    func requireStaff() throws -> Account {
        guard let account else { throw APIError.unauthorized }
        guard account.isStaff else { throw APIError.forbidden }
        return account
    }

    /// How the ledger names whoever made this request.
    var actor: String { account.map { "\($0.role.rawValue):\($0.username)" } ?? "guest" }
}
