import Logging
import ServiceLifecycle
import Storage

/// Notices writes that other processes (the CLI, another server) make to the same SQLite file,
/// by polling SQLite's `data_version`, and refreshes the juice bar's snapshot when it moves.
struct OutsideWriteWatcher: Service {
    let watcher: SQLiteChangeWatcher
    let juiceBar: JuiceBarService
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
                try await juiceBar.refresh()
            } catch {
                logger.warning("could not check the database for outside writes", metadata: ["error": "\(error)"])
            }
        }
    }
}
