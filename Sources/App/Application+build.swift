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
    /// The shop's time zone: when a day (an event's, "hide for today") begins and ends.
    public var timeZone: TimeZone
    /// What time it is; tests move it.
    public var clock: @Sendable () -> Date
    /// How many connections are held at once, and how long idle ones are kept.
    public var connections: ConnectionLimits
    /// How often each live stream gets a heartbeat, which finds clients that left.
    public var heartbeat: Duration
    /// Where to write the port once listening (useful with port 0, which picks a free one).
    public var portFile: String?

    public init(host: String = "127.0.0.1", port: Int = 8080, database: String = "juicemaker.sqlite",
                adminPassword: String? = nil, bcryptCost: UInt8 = 12, logLevel: Logger.Level = .info,
                timeZone: TimeZone = .current, clock: @escaping @Sendable () -> Date = Date.init,
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

/// The composition root: builds storage, services and routes once, and hands each what it needs.
public func buildApplication(
    _ configuration: ServerConfiguration, prometheus: PrometheusCollectorRegistry? = nil
) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "juicemaker")
    logger.logLevel = configuration.logLevel

    let calendar = ShopCalendar(timeZone: configuration.timeZone)
    let database = try await ShopDatabase.open(configuration.database, calendar: calendar, now: configuration.clock)
    let live = LiveUpdates()
    let juiceBar = try await JuiceBarService(store: database.juiceBar, live: live)
    let vending = VendingService(store: database.vending, live: live)
    let accounts = AccountService(store: database.accounts, bcryptCost: configuration.bcryptCost, now: configuration.clock)
    try await accounts.ensureAdmin(password: configuration.adminPassword, logger: logger)
    let content = ContentService(store: database.content, accounts: database.accounts,
                                 calendar: calendar, now: configuration.clock)

    let publicFolder = Bundle.module.resourceURL!.appendingPathComponent("Public")
    let router = Router(context: ShopRequestContext.self, options: .autoGenerateHeadEndpoints)
    let routeTable = RouteTable()
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: AccessLogMiddleware())
    router.add(middleware: ErrorMiddleware(menu: { juiceBar.menu }))
    router.add(middleware: MethodNotAllowedMiddleware(table: routeTable))
    router.add(middleware: CrossSiteMiddleware())
    router.add(middleware: FileMiddleware(publicFolder.path, urlBasePath: "/assets",
                                          cacheControl: .init([(MediaType(type: .any), [.noCache])])))
    router.add(middleware: SessionMiddleware(accounts: accounts))
    router.add(middleware: LanguageMiddleware())

    let api = router.group("api")
    let idempotent = IdempotentRequests(store: database.idempotency, menu: { juiceBar.menu }, now: configuration.clock)
    JuiceBarAPI(juiceBar: juiceBar, idempotent: idempotent).addRoutes(to: api)
    VendingAPI(vending: vending, idempotent: idempotent).addRoutes(to: api)
    ExportRoutes(juiceBar: juiceBar, stores: database, calendar: calendar).addRoutes(to: api)
    let days = ShopDays(database, calendar: calendar, now: configuration.clock)
    DayAPI(days: days).addRoutes(to: api)
    DayPages(days: days).addRoutes(to: router)
    LiveRoutes(live: live, juiceBar: juiceBar, vending: vending).addRoutes(to: api)
    SessionRoutes(accounts: accounts).addRoutes(api: api, pages: router)
    JuiceBarPages(juiceBar: juiceBar).addRoutes(to: router)
    QueuePages(juiceBar: juiceBar).addRoutes(to: router)
    VendingPages(vending: vending).addRoutes(to: router)
    MemberAPI(accounts: accounts, content: content, juiceBar: juiceBar).addRoutes(api: api, router: router)
    MemberPages(accounts: accounts, content: content, juiceBar: juiceBar).addRoutes(to: router)
    SystemRoutes(prometheus: prometheus, publicFolder: publicFolder).addRoutes(to: router)

    routeTable.load(router)

    let watcher = OutsideWriteWatcher(feed: database.changes, parts: [juiceBar, vending], logger: logger)
    return Application(
        router: router,
        server: .http1(limits: configuration.connections),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "JuiceMaker"),
        // Services stop in reverse order: the server first, the database connections last.
        services: [DatabaseConnections(database: database), watcher, Heartbeat(live: live, interval: configuration.heartbeat)],
        onServerRunning: { [logger, host = configuration.host, portFile = configuration.portFile] channel in
            let port = channel.localAddress?.port ?? 0
            logger.notice("listening on http://\(host):\(port)", metadata: [
                "maxConnections": "\(configuration.connections.maximum)",
            ])
            guard let portFile else { return }
            do {
                try writePortFile(portFile, port: port)
            } catch {
                logger.error("could not write the port file", metadata: ["path": "\(portFile)", "error": "\(error)"])
            }
        },
        logger: logger)
}

/// Writes the port whole or not at all, so a reader never sees half a number.
private func writePortFile(_ path: String, port: Int) throws {
    let temporary = path + ".partial"
    try Data("\(port)\n".utf8).write(to: URL(fileURLWithPath: temporary))
    guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
}

/// Closes the database's connections once the server has stopped.
struct DatabaseConnections: Service {
    let database: ShopDatabase

    func run() async {
        try? await gracefulShutdown()
        await database.close()
    }
}
