import Hummingbird
import Logging
import ServiceLifecycle

extension ApplicationProtocol {
    /// Runs the server until SIGTERM or SIGINT, then stops it gracefully: no new connections, and
    /// the requests in progress answered. What is still open `limit` after the signal is cut (its
    /// tasks cancelled), so a client that never reads or never finishes cannot hold the stop for
    /// ever. The log says when the stop begins, as each part has stopped (`LoggedStop`), whether
    /// it had to cut, and when it has ended.
    public func runUntilStopped(cuttingAfter limit: Duration) async throws {
        let (began, begin) = AsyncStream.makeStream(of: Void.self)
        let services = ServiceGroup(services: [self, StopBegins(begin: begin, logger: logger)],
                                    gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [], logger: logger)
        do {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await services.run() }
                tasks.addTask { try await cut(after: limit, of: began, logger: logger) }
                // The first to end decides: the services stopped (the watch is let go), or the watch
                // ran out (the services are cancelled).
                defer { tasks.cancelAll() }
                try await tasks.next()
            }
        } catch is StopOverdue {
            // What was open was cut; the stop went as asked.
        }
        logger.notice("stopped")
    }
}

private struct StopOverdue: Error {}

/// Once the stop has begun, waits `limit`, says what it will do, and throws `StopOverdue`.
private func cut(after limit: Duration, of began: AsyncStream<Void>, logger: Logger) async throws {
    for await _ in began {
        try await Task.sleep(for: limit)
        logger.warning("the stop has waited \(limit) for what is still open; cutting it")
        throw StopOverdue()
    }
}

/// Told to stop before the server (a group stops its services last first): the stop begins.
private struct StopBegins: Service {
    let begin: AsyncStream<Void>.Continuation
    let logger: Logger

    func run() async {
        guard (try? await gracefulShutdown()) != nil else { return }
        logger.notice("stopping: no new connections; open ones close once their requests are answered")
        begin.yield()
        begin.finish()
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
