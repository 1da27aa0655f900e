import Hummingbird
import Logging
import ServiceLifecycle

extension ApplicationProtocol {
    /// Runs the server until SIGTERM or SIGINT, then stops it gracefully. The log says when the stop
    /// begins, as each part has stopped (`LoggedStop`), and when it has ended, so a stop that hangs
    /// shows which part it waits for.
    public func runUntilStopped() async throws {
        let group = ServiceGroup(services: [self, StopBegins(logger: logger)], gracefulShutdownSignals: [.sigterm, .sigint],
                                 cancellationSignals: [], logger: logger)
        try await group.run()
        logger.notice("stopped")
    }
}

/// Told to stop before the server (a group stops its services last first): says the stop has begun.
private struct StopBegins: Service {
    let logger: Logger

    func run() async {
        guard (try? await gracefulShutdown()) != nil else { return }
        logger.notice("stopping: no new connections; open ones close once their requests are answered")
    }
}

extension Service {
    /// This service, saying `stopped` in the log when it has stopped.
    func saying(_ stopped: Logger.Message, to logger: Logger) -> LoggedStop {
        LoggedStop(service: self, stopped: stopped, logger: logger)
    }
}

/// A service that says in the log when it has stopped.
struct LoggedStop: Service {
    let service: any Service
    /// What the log says then: "done with the database", say.
    let stopped: Logger.Message
    let logger: Logger

    func run() async throws {
        try await service.run()
        logger.notice(stopped)
    }
}

/// Placed last among the server's own services, it is told to stop right after the HTTP server has
/// stopped, when every connection has closed, and says so.
struct ConnectionsClosed: Service {
    let logger: Logger

    func run() async {
        guard (try? await gracefulShutdown()) != nil else { return }
        logger.notice("closed every connection")
    }
}
