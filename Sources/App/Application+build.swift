import Foundation
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle
import Storage
import JuiceBar

/// How to run the shop's server.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// A SQLite file's path, or a `postgres://` URL for a database shared by several servers.
    public var database: String
    /// The first staff account's password; generated and logged once when nil.
    public var adminPassword: String?
    public var bcryptCost: UInt8
    public var logLevel: Logger.Level
    /// The time zone a shop this start creates counts its days in; nil: `TZ` if that names a
    /// zone, else Asia/Seoul. An existing shop keeps its own (`juicemaker shop time-zone`).
    public var timeZone: TimeZone?
    /// What time it is; tests move it.
    public var clock: @Sendable () -> Date
    /// How many connections are held at once, and how long idle ones are kept.
    public var connections: ConnectionLimits
    /// How often each live stream gets a heartbeat, which finds clients that left.
    public var heartbeat: Duration
    /// Where to write the port once listening (useful with port 0, which picks a free one).
    public var portFile: String?
    /// How long to wait at start for a PostgreSQL server that does not accept connections yet.
    public var databaseWait: Duration = .zero
    /// The certificate and key to serve HTTPS with (HTTP/2 or HTTP/1.1); plain HTTP when nil.
    public var tls: TLSFiles?
    /// The proxies whose forwarding headers say who the client is and whether it used HTTPS.
    public var trustedProxies = TrustedProxies.none
    /// Members sign in with Kakao (or the provider it names) when set; off when nil.
    public var openID: OpenIDSettings?

    public init(host: String = "127.0.0.1", port: Int = 8080, database: String = "juicemaker.sqlite",
                adminPassword: String? = nil, bcryptCost: UInt8 = 12, logLevel: Logger.Level = .info,
                timeZone: TimeZone? = nil, clock: @escaping @Sendable () -> Date = Date.init,
                connections: ConnectionLimits = .init(), heartbeat: Duration = .seconds(3), portFile: String? = nil) {
        self.connections = connections
        self.heartbeat = heartbeat
        self.portFile = portFile
        self.timeZone = timeZone
        self.clock = clock
        self.host = host
        self.port = port
        self.database = database
        self.adminPassword = adminPassword
        self.bcryptCost = bcryptCost
        self.logLevel = logLevel
    }
}

/// Sign-in with an OpenID Connect provider, as `serve`'s Kakao flags give it.
public struct OpenIDSettings: Sendable {
    public static var kakaoIssuer: String { OpenIDConfiguration.kakaoIssuer }
    /// Kakao's REST API key.
    public var clientID: String
    public var clientSecret: String?
    /// Where members reach the shop: the provider sends them back to `<publicURL>/login/kakao/callback`.
    public var publicURL: String
    public var issuer: String

    public init(clientID: String, clientSecret: String?, publicURL: String, issuer: String = kakaoIssuer) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.publicURL = publicURL
        self.issuer = issuer
    }
}

/// The composition root: builds storage and services once (`ShopServices`), the routes over them
/// (`buildRouter`), and the server that runs them with the services that outlive a request.
public func buildApplication(
    _ configuration: ServerConfiguration, prometheus: PrometheusCollectorRegistry? = nil
) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "juicemaker")
    logger.logLevel = configuration.logLevel
    let shop = try await ShopServices(configuration, logger: logger)
    let watcher = OutsideWriteWatcher(feed: shop.database.changes, parts: [shop.juiceBar, shop.vending, shop.calendar],
                                       logger: logger, refusals: shop.refusals)
    let server = try await ServerTransport(configuration, logger: logger)
    // The services beside the server. They stop in reverse order, each saying so in the log: the
    // server first, the database last.
    var services: [any Service] = [DatabaseConnections(database: shop.database).saying("done with the database", to: logger)]
    if let kakao = shop.kakao {
        services.append(ProviderConnections(client: kakao.client)
            .saying("closed the connections to the sign-in provider", to: logger))
    }
    services += [watcher.saying("stopped following other processes' writes", to: logger),
                 Heartbeat(live: shop.live, interval: configuration.heartbeat)
                     .saying("stopped the live streams' heartbeats", to: logger)]
    services += server.services + [ConnectionsClosed(logger: logger)]
    return Application(
        responder: LiveStreamResponder(inner: buildRouter(
            shop, origin: ClientOriginMiddleware(proxies: configuration.trustedProxies, servesHTTPS: configuration.tls != nil),
            prometheus: prometheus).buildResponder()),
        server: server.builder,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "JuiceMaker"),
        services: services,
        onServerRunning: { [logger] channel in
            announceListening(port: channel.localAddress?.port ?? 0, configuration, logger: logger)
        },
        logger: logger)
}

/// The shop's storage and the services over it, built once at start and shared by every route.
struct ShopServices: Sendable {
    /// The shop's days as its stored time zone counts them, followed when another process changes it.
    let calendar: LiveShopCalendar
    let database: ShopDatabase
    let live = LiveUpdates()
    /// Whether writes are refused now (a full disk, the database away), for `/health` and the metric.
    let refusals: WriteRefusals
    let juiceBar: JuiceBarService
    let vending: VendingService
    let accounts: AccountService
    let content: ContentService
    let days: ShopDays
    let idempotent: IdempotentRequests
    /// Signing in with Kakao; nil when the server has no client id.
    let kakao: KakaoLogin?

    init(_ configuration: ServerConfiguration, logger: Logger) async throws {
        database = try await ShopDatabase.open(configuration.database, waitingUpTo: configuration.databaseWait,
                                               logger: logger, newShopTimeZone: configuration.timeZone,
                                               now: configuration.clock)
        refusals = WriteRefusals(logger: logger, now: configuration.clock)
        let calendar = try await LiveShopCalendar(settings: database.settings)
        self.calendar = calendar
        // A local, so the idempotency store's menu can read it before `self` is whole.
        let juiceBar = try await JuiceBarService(store: database.juiceBar, live: live)
        self.juiceBar = juiceBar
        vending = VendingService(store: database.vending, live: live)
        accounts = AccountService(store: database.accounts, bcryptCost: configuration.bcryptCost, now: configuration.clock)
        try await accounts.ensureAdmin(password: configuration.adminPassword, logger: logger)
        content = ContentService(store: database.content, accounts: database.accounts,
                                 calendar: { calendar.current }, now: configuration.clock)
        days = ShopDays(database, calendar: calendar, now: configuration.clock)
        idempotent = IdempotentRequests(store: database.idempotency, menu: { juiceBar.menu }, now: configuration.clock)
        kakao = configuration.openID.map { [accounts, database] settings in
            KakaoLogin(client: OpenIDClient(configuration: OpenIDConfiguration(settings), logger: logger, now: configuration.clock),
                       accounts: accounts, identities: database.identities, logger: logger, now: configuration.clock)
        }
    }
}

/// The routes and, around them, the middleware every request passes through, outermost first.
func buildRouter(_ shop: ShopServices, origin: ClientOriginMiddleware,
                 prometheus: PrometheusCollectorRegistry?) -> Router<ShopRequestContext> {
    let publicFolder = Bundle.module.resourceURL!.appendingPathComponent("Public")
    let router = Router(context: ShopRequestContext.self, options: .autoGenerateHeadEndpoints)
    let routeTable = RouteTable()
    // Outermost, so errors, 404s, 405s, assets and redirects carry the headers too.
    router.add(middleware: SecurityHeadersMiddleware(formTargets: shop.kakao?.formTargets ?? []))
    router.add(middleware: origin)
    router.add(middleware: RequestMetricsMiddleware())
    router.add(middleware: AccessLogMiddleware(lines: .standardError))
    // Before the error middleware, which writes its messages in the request's language.
    router.add(middleware: LanguageMiddleware())
    router.add(middleware: ErrorMiddleware(menu: { shop.juiceBar.menu }, refusals: shop.refusals))
    router.add(middleware: MethodNotAllowedMiddleware(table: routeTable))
    router.add(middleware: CrossSiteMiddleware())
    router.add(middleware: FileMiddleware(publicFolder.path, urlBasePath: "/assets",
                                          cacheControl: .init([(MediaType(type: .any), [.noCache])])))
    router.add(middleware: SessionMiddleware(accounts: shop.accounts))
    // After the session is known: which token a request needs depends on it.
    router.add(middleware: CSRFMiddleware())
    router.add(middleware: RememberLanguageMiddleware())
    addFeatures(shop, api: router.group("api"), pages: router.group())
    SystemRoutes(prometheus: prometheus, publicFolder: publicFolder, refusals: shop.refusals).addRoutes(to: router.group())
    routeTable.load(router)
    return router
}

/// Each feature's routes: its JSON API under `/api`, its pages at the root.
func addFeatures(_ shop: ShopServices, api: RouterGroup<ShopRequestContext>, pages: RouterGroup<ShopRequestContext>) {
    JuiceBarAPI(juiceBar: shop.juiceBar, idempotent: shop.idempotent).addRoutes(to: api)
    MenuAPI(juiceBar: shop.juiceBar).addRoutes(to: api)
    JuiceBarPages(juiceBar: shop.juiceBar).addRoutes(to: pages)
    MenuPages(juiceBar: shop.juiceBar).addRoutes(to: pages)
    QueuePages(juiceBar: shop.juiceBar).addRoutes(to: pages)
    CounterPages(juiceBar: shop.juiceBar).addRoutes(to: pages)
    VendingAPI(vending: shop.vending, idempotent: shop.idempotent, calendar: { shop.calendar.current }).addRoutes(to: api)
    VendingPages(vending: shop.vending).addRoutes(to: pages)
    SessionAPI(accounts: shop.accounts).addRoutes(to: api)
    SessionPages(accounts: shop.accounts, kakaoLogin: shop.kakao != nil).addRoutes(to: pages)
    shop.kakao?.addRoutes(to: pages)
    MemberAPI(accounts: shop.accounts, content: shop.content, juiceBar: shop.juiceBar).addRoutes(to: api)
    MemberPages(content: shop.content, juiceBar: shop.juiceBar, accounts: shop.accounts,
                kakaoIssuer: shop.kakao?.issuer).addRoutes(to: pages)
    ImageRoutes(content: shop.content).addRoutes(to: pages)
    DayAPI(days: shop.days).addRoutes(to: api)
    ShopAPI(settings: shop.database.settings).addRoutes(to: api)
    DayPages(days: shop.days).addRoutes(to: pages)
    ReceiptPages(juiceBar: shop.juiceBar, settings: shop.database.settings, calendar: { shop.calendar.current })
        .addRoutes(to: pages)
    ExportRoutes(juiceBar: shop.juiceBar, stores: shop.database, calendar: { shop.calendar.current }).addRoutes(to: api)
    LiveRoutes(live: shop.live, juiceBar: shop.juiceBar, vending: shop.vending).addRoutes(to: api)
}

/// Logs where the server listens, and writes the port to the port file when one is asked for.
private func announceListening(port: Int, _ configuration: ServerConfiguration, logger: Logger) {
    let scheme = configuration.tls == nil ? "http" : "https"
    logger.notice("listening on \(scheme)://\(configuration.host):\(port)", metadata: [
        "maxConnections": "\(configuration.connections.maximum)",
    ])
    guard let portFile = configuration.portFile else { return }
    do {
        try writePortFile(portFile, port: port)
    } catch {
        logger.error("could not write the port file", metadata: ["path": "\(portFile)", "error": "\(error)"])
    }
}

/// Writes the port whole or not at all, so a reader never sees half a number.
private func writePortFile(_ path: String, port: Int) throws {
    let temporary = path + ".partial"
    try Data("\(port)\n".utf8).write(to: URL(fileURLWithPath: temporary))
    guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
}

/// Closes the connections to the OpenID Connect provider once the server has stopped.
struct ProviderConnections: Service {
    let client: OpenIDClient

    func run() async {
        try? await gracefulShutdown()
        try? await client.shutdown()
    }
}

extension OpenIDConfiguration {
    /// As `serve`'s flags give it: the provider sends members back to `<public URL>/login/kakao/callback`.
    init(_ settings: OpenIDSettings) {
        var publicURL = settings.publicURL
        while publicURL.hasSuffix("/") { publicURL.removeLast() }
        self.init(issuer: settings.issuer, clientID: settings.clientID, clientSecret: settings.clientSecret,
                  redirectURI: publicURL + "/login/kakao/callback")
    }
}

/// Closes the database's connections once the server has stopped.
struct DatabaseConnections: Service {
    let database: ShopDatabase

    func run() async {
        try? await gracefulShutdown()
        await database.close()
    }
}
