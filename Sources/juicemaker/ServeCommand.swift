import ArgumentParser
import App
import Foundation
import Logging
import Hummingbird
import Metrics
import Prometheus
import Storage

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the shop's server: web pages, JSON API and live updates."
    )
    @OptionGroup var shop: ShopOptions
    @OptionGroup var admin: AdminPasswordOptions
    @OptionGroup(title: "Kakao login") var kakao: KakaoLoginOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks a free one (see --port-file and the log).")
    var port = 8080
    @Option(help: "Write the port to this file once listening.") var portFile: String?
    @Option(help: "The most connections held at once (lowered to fit the open-file limit); one more is answered 503.")
    var maxConnections = ConnectionLimits().maximum
    @Option(help: "Seconds a connection may take to send a request's headers, or stay idle between requests.")
    var idleTimeout = 15
    @Option(help: "Seconds a request's body may take to arrive once its headers have; past it, 408 and the connection closed.")
    var bodyTimeout = 30
    @Option(help: "Seconds between heartbeats on live streams, which find clients that left.")
    var heartbeat = 3
    @Option(help: "Seconds a stop (SIGTERM, SIGINT) waits for the requests in progress; past it what is left is cut.")
    var stopTimeout = 10
    @Option(name: .customLong("trusted-proxy"),
            help: "A proxy in front (ADDR or ADDR/PREFIX, repeatable) whose Forwarded/X-Forwarded-* headers are believed.")
    var trustedProxies: [String] = []
    @Option(help: "Serve HTTPS (HTTP/2 or HTTP/1.1) with this certificate: PEM, the chain after it (certbot's fullchain.pem); SIGHUP reads it again.")
    var tlsCert: String?
    @Option(help: "The private key (PEM) of --tls-cert.") var tlsKey: String?
    @Option(help: "Seconds to wait at start for a PostgreSQL server that does not accept connections yet (asked again less and less often); past it, exit 1.")
    var databaseWait = 60
    @Option(help: "The least important log level written: trace, debug, info (one line per request), notice, warning, error.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
        guard (1...3_600).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be 1...3600 seconds") }
        guard (1...3_600).contains(bodyTimeout) else { throw ValidationError("--body-timeout must be 1...3600 seconds") }
        guard (1...3_600).contains(heartbeat) else { throw ValidationError("--heartbeat must be 1...3600 seconds") }
        guard (1...3_600).contains(stopTimeout) else { throw ValidationError("--stop-timeout must be 1...3600 seconds") }
        guard (0...86_400).contains(databaseWait) else { throw ValidationError("--database-wait must be 0...86400 seconds") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        do { _ = try TrustedProxies(trustedProxies) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        FreedMemory.keepForReuse()
        let registry = PrometheusCollectorRegistry()
        var metrics = PrometheusMetricsFactory(registry: registry)
        metrics.durationHistogramBuckets[JuiceBarService.readyHistogram] = JuiceBarService.readyBuckets
        MetricsSystem.bootstrap(metrics)
        let connections = ConnectionLimits(maximum: maxConnections, idleTimeout: .seconds(idleTimeout),
                                           bodyTimeout: .seconds(bodyTimeout))
            .fitted(toDescriptorLimit: DescriptorLimit.raise())
        var configuration = ServerConfiguration(
            host: host, port: port, database: shop.location,
            adminPassword: try admin.password(),
            logLevel: logLevel, connections: connections, heartbeat: .seconds(heartbeat), portFile: portFile)
        configuration.trustedProxies = try TrustedProxies(trustedProxies)
        configuration.openID = try kakao.settings()
        configuration.tls = tlsCert.flatMap { cert in tlsKey.map { TLSFiles(certificate: cert, privateKey: $0) } }
        configuration.databaseWait = .seconds(databaseWait)
        do {
            let app = try await buildApplication(configuration, prometheus: registry)
            try await app.runUntilStopped(cuttingAfter: .seconds(stopTimeout))
        } catch StorageError.unreachable(let reason) {
            throw fail("\(reason) (waited \(databaseWait) s, --database-wait)", code: 1)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
