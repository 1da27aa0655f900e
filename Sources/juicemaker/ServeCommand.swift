import ArgumentParser
import App
import Foundation
import Logging
import Hummingbird
import Metrics
import Prometheus

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the shop's server: web pages, JSON API and live updates."
    )
    @OptionGroup var shop: ShopOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on.") var port = 8080
    @Option(help: "The least important log level written: trace, debug, info (one line per request), notice, warning, error.")
    var logLevel: Logger.Level = .info

    func run() async throws {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let app = try await buildApplication(
            ServerConfiguration(host: host, port: port, database: shop.location,
                                adminPassword: ProcessInfo.processInfo.environment["JUICEMAKER_ADMIN_PASSWORD"],
                                logLevel: logLevel),
            prometheus: registry)
        try await app.runService()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
