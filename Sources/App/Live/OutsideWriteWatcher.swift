import Logging
import ServiceLifecycle
import Storage

/// Has every stateful part of the server look again when another process (the CLI, another
/// server on the same database) commits a change, within the second pages must follow it.
struct OutsideWriteWatcher: Service {
    let feed: any ChangeFeed
    let parts: [any RefreshesOnOutsideWrite]
    let logger: Logger
    /// How long to wait before watching again after the feed broke (a lost connection).
    var retryDelay: Duration = .seconds(1)

    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await feed.watch(refreshAll)
                } catch {
                    guard !Task.isCancelled else { return }
                    // Watching again starts with a full read, so a change whose read failed is not lost.
                    logger.warning("could not follow the database's outside writes; watching again",
                                   metadata: ["error": "\(error)"])
                    try? await Task.sleep(for: retryDelay)
                }
            }
        }
    }

    @Sendable private func refreshAll() async throws {
        for part in parts { try await part.refresh() }
    }
}
