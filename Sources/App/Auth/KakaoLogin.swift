import Crypto
import DayClose
import Foundation
import Hummingbird
import JuiceBar
import Logging
import Membership
import ShopBasics
import Storage

/// Signing in with Kakao (OpenID Connect; another provider with `--oidc-issuer`), registered only
/// with a client id. `GET /login/kakao` sends the browser to the provider; `GET /login/kakao/callback`
/// brings it back signed in, a new member made on the first visit. From `/home` a signed-in member
/// links (`POST /home/kakao/link`, after a fresh sign-in there) or unlinks (`POST /home/kakao/unlink`).
/// Every failure is the sign-in page saying why; nothing is made and no session started.
struct KakaoLogin: Sendable {
    let client: OpenIDClient
    let accounts: AccountService
    let identities: any IdentityStore
    let logger: Logger
    let now: @Sendable () -> Date

    /// How long a started sign-in waits for the browser to come back.
    static let pendingLifetime: TimeInterval = 10 * 60
    static let bindingCookieName = "juicemaker_oidc"

    var issuer: String { client.configuration.issuer }

    /// Where the Kakao button's form leads, redirects included, for the pages' CSP `form-action`:
    /// the issuer's origin and, for Kakao, the login pages it sends a member to first.
    var formTargets: [String] {
        let origin = URL(string: issuer).map { url in
            "\(url.scheme ?? "https")://\(url.host ?? "")" + (url.port.map { ":\($0)" } ?? "")
        } ?? issuer
        return issuer == OpenIDConfiguration.kakaoIssuer ? [origin, "https://accounts.kakao.com"] : [origin]
    }

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.get("login/kakao", use: start)
        pages.get("login/kakao/callback", use: callback)
        pages.group("home/kakao").add(middleware: SignInRequired.signedInPages)
            .post("link", use: link)
            .post("unlink", use: unlink)
    }

    /// `?next=` is judged like the sign-in form's: a path on this site or nothing.
    @Sendable func start(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let next = request.uri.queryParameters["next"].flatMap { LoginPage.safeNext(String($0)) } ?? ""
        return try await begin(request, context, next: next, linking: nil)
    }

    @Sendable func link(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let account = try context.requireAccount()
        // Staff sign in with their password only; the page offers them no button either.
        guard !account.isStaff else { return Response.redirect(to: "/home", type: .found) }
        guard !account.linkedIssuers.contains(issuer) else { return HomePage.saying(.alreadyLinked) }
        return try await begin(request, context, next: "/home", linking: account.id)
    }

    @Sendable func unlink(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let account = try context.requireAccount()
        do {
            try await identities.unlink(issuer: issuer, accountID: account.id)
        } catch IdentityError.onlyWayIn {
            return HomePage.saying(.onlyWayIn)
        } catch IdentityError.notLinked {
            return Response.redirect(to: "/home", type: .found)
        }
        return HomePage.saying(.kakaoDisconnected)
    }

    /// Writes the flow down under a fresh state, bound to this browser by a cookie, and sends the
    /// browser to the provider: to sign in again there (`prompt=login`) when linking.
    func begin(_ request: Request, _ context: ShopRequestContext, next: String, linking: Int64?) async throws -> Response {
        let binding = Self.binding(in: request, context) ?? RandomToken.make()
        let pending = PendingSignIn(
            state: RandomToken.make(), browser: Self.digest(binding), nonce: RandomToken.make(),
            codeVerifier: PKCE.verifier(), next: next, language: context.language.rawValue,
            linkingAccountID: linking, expires: now() + Self.pendingLifetime)
        let url: String
        do {
            url = try await client.authorizationURL(state: pending.state, nonce: pending.nonce,
                                                    codeVerifier: pending.codeVerifier, prompt: linking == nil ? nil : "login")
        } catch let error as OpenIDError {
            return failed(error, pending: pending, request, context)
        }
        try await identities.savePendingSignIn(pending)
        var response = Response.redirect(to: url, type: .found)
        response.setCookie(Self.bindingCookie(binding, secure: context.isHTTPS))
        return response
    }

    /// The provider's answer: `?code=&state=`, or `?error=access_denied&state=` when the member said no.
    @Sendable func callback(_ request: Request, context: ShopRequestContext) async throws -> Response {
        // The router answers HEAD with the GET route: a HEAD (a link checker's) must not use up
        // the state the browser's GET comes back with.
        guard request.method != .head else {
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"])
        }
        let query = request.uri.queryParameters
        guard let state = query["state"].map(String.init), !state.isEmpty else {
            // A provider may leave the state off a refusal; the flow then expires unused.
            if query["error"] == "access_denied" { return refusal(.denied, .forbidden, request, context) }
            // Nothing from a provider (the page's language link, say): just the sign-in page.
            guard query["code"] == nil, query["error"] == nil else { return refusal(.expired, .badRequest, request, context) }
            return Response.redirect(to: PageLinks(context.language).signIn, type: .found)
        }
        guard let pending = try await identities.takePendingSignIn(state: state, now: now()) else {
            return refusal(.expired, .badRequest, request, context)
        }
        guard let binding = Self.binding(in: request, context), Self.digest(binding) == pending.browser else {
            return refusal(.otherBrowser, .badRequest, request, context, pending: pending)
        }
        if let error = query["error"] {
            logger.notice("the OpenID Connect provider answered an error", metadata: ["error": "\(error.prefix(100))"])
            let denied = error == "access_denied"
            return refusal(denied ? .denied : .refused, denied ? .forbidden : .badGateway, request, context, pending: pending)
        }
        guard let code = query["code"].map(String.init), !code.isEmpty else {
            return refusal(.refused, .badRequest, request, context, pending: pending)
        }
        let signIn: OpenIDSignIn
        do {
            signIn = try await client.signIn(code: code, codeVerifier: pending.codeVerifier, nonce: pending.nonce)
        } catch let error as OpenIDError {
            return failed(error, pending: pending, request, context)
        }
        if let accountID = pending.linkingAccountID {
            return try await finishLinking(signIn.identity, to: accountID, context)
        }
        return try await finishSignIn(signIn, pending: pending, request, context)
    }

    /// The member this identity is, made now on its first visit, signed in as a password sign-in is.
    func finishSignIn(_ signIn: OpenIDSignIn, pending: PendingSignIn, _ request: Request,
                      _ context: ShopRequestContext) async throws -> Response {
        let account: Account
        if let known = try await identities.account(identity: signIn.identity) {
            do {
                try await accounts.requireNotLockedOut(known)
            } catch let locked as APIError {
                return loginPage(saying: { Words.of($0).say(locked.message) }, locked.status, request, context,
                                 pending: pending)
            }
            account = known
        } else {
            let usernames = AccountRules.usernameCandidates(nickname: signIn.nickname, subject: signIn.identity.subject)
            account = try await identities.createMember(
                identity: signIn.identity, usernames: usernames,
                name: AccountRules.memberName(nickname: signIn.nickname, username: usernames.first ?? "member"), at: now())
            logger.notice("a member signed up through OpenID Connect", metadata: ["username": "\(account.username)"])
        }
        let landing = account.isStaff ? "/" : "/home"
        var response = Response.redirect(to: pending.next.isEmpty ? landing : pending.next, type: .found)
        try await accounts.startSession(for: account, of: context, on: &response)
        return response
    }

    /// Links the identity to the member who started linking, while still signed in as them.
    func finishLinking(_ identity: ExternalIdentity, to accountID: Int64, _ context: ShopRequestContext) async throws -> Response {
        guard let account = context.account, account.id == accountID, !account.isStaff else { return HomePage.saying(.refused) }
        do {
            try await identities.link(identity, to: accountID, at: now())
        } catch IdentityError.linkedToAnother {
            return HomePage.saying(.linkedToAnother)
        } catch IdentityError.alreadyLinked {
            return HomePage.saying(.alreadyLinked)
        }
        return HomePage.saying(.kakaoConnected)
    }

    /// A provider call that failed: logged with its reason (never a secret), told to the member.
    func failed(_ error: OpenIDError, pending: PendingSignIn, _ request: Request, _ context: ShopRequestContext) -> Response {
        switch error {
        case .providerUnavailable(let reason):
            logger.warning("the OpenID Connect provider is unavailable", metadata: ["reason": "\(reason)"])
            let slow = ["timeout", "timed out", "deadline"].contains { reason.lowercased().contains($0) }
            return refusal(.unavailable, slow ? .gatewayTimeout : .badGateway, request, context, pending: pending)
        case .tokenRefused(let reason), .tokenInvalid(let reason):
            logger.warning("an OpenID Connect sign-in was refused", metadata: ["reason": "\(reason)"])
            return refusal(.refused, .unauthorized, request, context, pending: pending)
        }
    }

    /// A failed flow: the sign-in page in the flow's language saying why, or `/home` saying it when linking.
    func refusal(_ notice: AccountNotice, _ status: HTTPResponse.Status, _ request: Request, _ context: ShopRequestContext,
                 pending: PendingSignIn? = nil) -> Response {
        if pending?.linkingAccountID != nil { return HomePage.saying(notice) }
        return loginPage(saying: { Words.of($0).account.notices[notice] }, status, request, context, pending: pending)
    }

    /// The sign-in page in the flow's language (the request's, when the flow is unknown) saying `message`.
    func loginPage(saying message: (Language) -> String?, _ status: HTTPResponse.Status, _ request: Request,
                   _ context: ShopRequestContext, pending: PendingSignIn?) -> Response {
        let language = pending.flatMap { Language(rawValue: $0.language) } ?? context.language
        return LoginPage(language: language, next: pending?.next ?? "", message: message(language),
                         username: "", request: request, kakaoLogin: true).render(status: status)
    }

    /// The browser's binding secret, when its cookie holds one (a token `RandomToken` makes).
    static func binding(in request: Request, _ context: ShopRequestContext) -> String? {
        bindingSecret.token(in: request, secure: context.isHTTPS)
    }

    /// What the database keeps of the binding: its SHA-256, so a copy of the database cannot finish a flow.
    static func digest(_ binding: String) -> String {
        SHA256.hash(data: Data(binding.utf8)).hex
    }

    /// Sent on the provider's top-level redirect back (Lax).
    static let bindingSecret = SecretCookie(name: bindingCookieName)

    static func bindingCookie(_ binding: String, secure: Bool) -> Cookie {
        bindingSecret.cookie(binding, maxAge: Int(pendingLifetime), secure: secure)
    }
}
