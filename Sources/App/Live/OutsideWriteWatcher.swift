import Logging
import ServiceLifecycle
import Storage

/// Notices writes that other processes (the CLI, another server) make to the same SQLite file,
/// by polling SQLite's `data_version`, and has every stateful part look again when it moves.
struct OutsideWriteWatcher: Service {
    let watcher: SQLiteChangeWatcher
    let parts: [any RefreshesOnOutsideWrite]
    let logger: Logger
    /// Well under the one second within which every open page must follow a change.
    var interval: Duration = .milliseconds(150)

    func run() async throws {
        var lastVersion = try await watcher.version()
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await Task.sleep(for: interval)
            do {
                let version = try await watcher.version()
                guard version != lastVersion else { continue }
                lastVersion = version
                for part in parts { try await part.refresh() }
            } catch {
                logger.warning("could not check the database for outside writes", metadata: ["error": "\(error)"])
            }
        }
    }
}
