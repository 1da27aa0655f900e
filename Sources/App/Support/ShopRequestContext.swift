import Hummingbird
import JuiceBar
import Membership
import ShopBasics

/// What every request carries through the routes: who is signed in, if anyone, and the language
/// to answer in.
public struct ShopRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in account, set by `SessionMiddleware`.
    public var account: Account?
    /// The session token the request came with, for signing out.
    public var sessionToken: String?
    /// The language pages and messages are written in, worked out once by `LanguageMiddleware`.
    var language: Language = .ko
    /// The address of whoever opened the connection: the client, or a proxy in front.
    public let peerAddress: String
    /// The client's address, through trusted proxies (`ClientOriginMiddleware`): whose turn it is
    /// when work is shared out fairly.
    public internal(set) var clientAddress: String
    /// Whether the client reached the shop over HTTPS (`ClientOriginMiddleware`).
    public internal(set) var isHTTPS = false

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        clientAddress = peerAddress
    }

    /// The signed-in account, or the error that says to sign in first.
    func requireAccount() throws -> Account {
        guard let account else { throw APIError.unauthorized }
        return account
    }

    /// The signed-in staff member, or the error that says who may do this.
    @discardableResult
    func requireStaff() throws -> Account {
        let account = try requireAccount()
        guard account.isStaff else { throw APIError.forbidden }
        return account
    }

    /// The signed-in account and its session's token, or the error that says to sign in first.
    func requireSession() throws -> (account: Account, token: String) {
        guard let account, let sessionToken else { throw APIError.unauthorized }
        return (account, sessionToken)
    }

    /// How the ledger names whoever made this request.
    var actor: String { account.map { "\($0.role.rawValue):\($0.username)" } ?? "guest" }
}
