import Logging
import ServiceLifecycle
import Storage
import Synchronization

/// Has every stateful part of the server look again when another process (the CLI, another
/// server on the same database) commits a change, within the second pages must follow it.
///
/// When the feed breaks (PostgreSQL restarting or crashed), notices sent meanwhile are lost for
/// good; so watching again starts with a full read of every part, which catches up on whatever
/// changed while this server was cut off. Meanwhile `refusals` says the database is away.
struct OutsideWriteWatcher: Service {
    let feed: any ChangeFeed
    let parts: [any RefreshesOnOutsideWrite]
    let logger: Logger
    /// Told when the database goes away and comes back, for `/health`.
    var refusals = WriteRefusals()
    /// How long to wait before watching again after the feed broke (a lost connection): short, so
    /// that a database back is followed again within a moment.
    var retryDelay: Duration = .milliseconds(200)

    func run() async {
        let brokenSince = BrokenSince()
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await feed.watch { try await refreshAll(after: brokenSince) }
                } catch {
                    guard !Task.isCancelled else { return }
                    refusals.failed(error, isWrite: false)
                    // Once an outage, not once a retry.
                    if brokenSince.broke() {
                        logger.warning("could not follow the database's outside writes; watching again",
                                       metadata: ["error": "\(error)"])
                    }
                    try? await Task.sleep(for: retryDelay)
                }
            }
        }
    }

    /// Reads every part again; the first read after the feed broke is the catch-up, and says so.
    @Sendable private func refreshAll(after brokenSince: BrokenSince) async throws {
        for part in parts { try await part.refresh() }
        guard let since = brokenSince.mended() else { return }
        refusals.cleared()
        logger.notice("following the database's outside writes again; read what changed meanwhile",
                      metadata: ["cutOff": "\(ContinuousClock.now - since)"])
    }
}

/// When the feed broke, while it stays broken.
private final class BrokenSince: Sendable {
    private let since = Mutex<ContinuousClock.Instant?>(nil)

    /// The feed broke (again); true the first time since it last worked.
    func broke() -> Bool {
        since.withLock { since in
            defer { since = since ?? .now }
            return since == nil
        }
    }

    /// The feed works again: when it had broken, if it had.
    func mended() -> ContinuousClock.Instant? {
        since.withLock { since in
            defer { since = nil }
            return since
        }
    }
}
