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
    public var databasePath: String
    /// The first staff account's password; generated and logged once when nil.
    public var adminPassword: String?
    public var bcryptCost: UInt8
    public var logLevel: Logger.Level
    /// The shop's time zone: when a day (an event's, "hide for today") begins and ends.
    public var timeZone: TimeZone
    /// What time it is; tests move it.
    public var clock: @Sendable () -> Date

    public init(host: String = "127.0.0.1", port: Int = 8080, databasePath: String = "juicemaker.sqlite",
                adminPassword: String? = nil, bcryptCost: UInt8 = 12, logLevel: Logger.Level = .info,
                timeZone: TimeZone = .current, clock: @escaping @Sendable () -> Date = Date.init) {
        self.timeZone = timeZone
        self.clock = clock
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.adminPassword = adminPassword
        self.bcryptCost = bcryptCost
        self.logLevel = logLevel
    }
}

/// The composition root: builds storage, services and routes once, and hands each what it needs.
public func buildApplication(
    _ configuration: ServerConfiguration, prometheus: PrometheusCollectorRegistry? = nil
) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "juicemaker")
    logger.logLevel = configuration.logLevel

    let database = try SQLiteDatabase(path: configuration.databasePath)
    let live = LiveUpdates()
    let juiceBar = try await JuiceBarService(store: SQLiteJuiceBarStore(database: database), live: live)
    let vending = VendingService(store: SQLiteVendingStore(database: database), live: live)
    let accountStore = SQLiteAccountStore(database: database)
    let accounts = AccountService(store: accountStore, bcryptCost: configuration.bcryptCost, now: configuration.clock)
    try await accounts.ensureAdmin(password: configuration.adminPassword, logger: logger)
    let content = ContentService(store: SQLiteContentStore(database: database), accounts: accountStore,
                                 calendar: ShopCalendar(timeZone: configuration.timeZone), now: configuration.clock)

    let publicFolder = Bundle.module.resourceURL!.appendingPathComponent("Public")
    let router = Router(context: ShopRequestContext.self, options: .autoGenerateHeadEndpoints)
    let routeTable = RouteTable()
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: AccessLogMiddleware())
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: MethodNotAllowedMiddleware(table: routeTable))
    router.add(middleware: CrossSiteMiddleware())
    router.add(middleware: FileMiddleware(publicFolder.path, urlBasePath: "/assets",
                                          cacheControl: .init([(MediaType(type: .any), [.noCache])])))
    router.add(middleware: SessionMiddleware(accounts: accounts))

    let api = router.group("api")
    JuiceBarAPI(juiceBar: juiceBar).addRoutes(to: api)
    VendingAPI(vending: vending).addRoutes(to: api)
    LiveRoutes(live: live, juiceBar: juiceBar, vending: vending).addRoutes(to: api)
    SessionRoutes(accounts: accounts).addRoutes(api: api, pages: router)
    PageRoutes(juiceBar: juiceBar, vending: vending).addRoutes(to: router)
    MemberAPI(accounts: accounts, content: content, juiceBar: juiceBar).addRoutes(api: api, router: router)
    MemberPages(accounts: accounts, content: content, juiceBar: juiceBar).addRoutes(to: router)
    SystemRoutes(prometheus: prometheus, publicFolder: publicFolder).addRoutes(to: router)

    routeTable.load(router)

    let watcher = OutsideWriteWatcher(
        watcher: try database.makeChangeWatcher(), parts: [juiceBar, vending], logger: logger)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "JuiceMaker"),
        services: [watcher],
        logger: logger)
}
