import Foundation
import Logging
import _ConnectionPoolModule
import PostgresNIO
import Synchronization

/// The connections to PostgreSQL, and whether it is there. While it answers, every statement goes
/// through one pool. When a connection breaks (PostgreSQL restarting or crashed, the network cut),
/// PostgreSQL is taken to be away: the pool is let go at once, so that the requests waiting in it
/// are refused rather than held while it retries, and until PostgreSQL accepts a connection again
/// every statement is refused at once as `StorageError.unavailable` (503), never held until a long
/// timeout. One probe a moment asks it directly; once it answers, a fresh pool (with none of the
/// old one's back-off) takes over, within `probeInterval` of PostgreSQL's return.
final class PostgresConnections: Sendable {
    private let location: PostgresLocation
    private let logger: Logger
    private let state: Mutex<State>
    /// How often a PostgreSQL that went away is asked whether it is back.
    static let probeInterval: Duration = .milliseconds(200)

    private struct State {
        var pool: Pool
        /// When PostgreSQL went away; nil while it answers.
        var awaySince: ContinuousClock.Instant?
        var probing: Task<Void, Never>?
        var closed = false
        /// Pools let go of, still winding down.
        var retired: [Task<Void, Never>] = []
    }

    /// A pool and the task that runs it.
    private struct Pool {
        let client: PostgresClient
        let running: Task<Void, Never>
        let generation: Int
    }

    init(_ location: PostgresLocation, logger: Logger) {
        self.location = location
        self.logger = logger
        state = Mutex(State(pool: Self.makePool(location, logger: logger, generation: 0)))
    }

    private static func makePool(_ location: PostgresLocation, logger: Logger, generation: Int) -> Pool {
        let client = PostgresClient(configuration: location.clientConfiguration, eventLoopGroup: BatchThread.group,
                                    backgroundLogger: logger)
        return Pool(client: client, running: Task { await client.run() }, generation: generation)
    }

    /// Whether PostgreSQL is away now (a connection broke and none has been made since).
    var isAway: Bool { state.withLock { $0.awaySince != nil } }

    /// Returns once PostgreSQL is taken to be away (or the caller is cancelled). A connection held
    /// for long (the change feed's) is closed then by its holder: after a crash its socket may
    /// never say so, and the pool it belongs to cannot end while it is held.
    func untilAway() async {
        while !Task.isCancelled && !isAway {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Runs `body` on a connection of the pool. Refused at once while PostgreSQL is away; a
    /// connection that breaks meanwhile (in `body`, or a commit whose answer never came: the write
    /// is in doubt) comes out as `StorageError.unavailable`, and PostgreSQL is taken to be away.
    func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let pool = try current()
        do {
            return try await pool.client.withConnection(body)
        } catch let error where Self.isConnectionLost(error) {
            wentAway(pool, because: error)
            throw StorageError.unavailable("PostgreSQL at \(location.server) is not answering (\(Self.reason(error))); "
                                           + "nothing was changed, or a commit's outcome is in doubt")
        }
    }

    /// The pool to use, or the refusal while PostgreSQL is away.
    private func current() throws -> Pool {
        try state.withLock { state in
            guard !state.closed else { throw StorageError.unavailable("the shop is stopping") }
            guard state.awaySince == nil else {
                throw StorageError.unavailable("PostgreSQL at \(location.server) is away; nothing was changed")
            }
            return state.pool
        }
    }

    /// A connection of `pool` broke: unless that pool was let go of already, PostgreSQL is away;
    /// the pool goes (its waiting requests are refused) and the probe starts.
    private func wentAway(_ pool: Pool, because error: any Error) {
        let began = state.withLock { state -> Bool in
            guard !state.closed, state.awaySince == nil, state.pool.generation == pool.generation else { return false }
            state.awaySince = .now
            pool.running.cancel()
            state.retired.append(pool.running)
            state.probing = Task { [self] in await probe() }
            return true
        }
        if began {
            logger.warning("PostgreSQL is away; refusing writes until it answers again",
                           metadata: ["server": "\(location.server)", "error": "\(Self.reason(error))"])
        }
    }

    /// Asks PostgreSQL for a connection every `probeInterval` until it gives one, then hands the
    /// statements a new pool.
    private func probe() async {
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: try location.connectionConfiguration(), id: 0, logger: logger)
                try? await connection.close()
                back()
                return
            } catch {
                try? await Task.sleep(for: Self.probeInterval)
            }
        }
    }

    private func back() {
        let away = state.withLock { state -> Duration? in
            guard !state.closed, let since = state.awaySince else { return nil }
            state.pool = Self.makePool(location, logger: logger, generation: state.pool.generation + 1)
            state.awaySince = nil
            state.probing = nil
            return ContinuousClock.now - since
        }
        if let away {
            logger.notice("PostgreSQL answers again; taking writes", metadata: [
                "server": "\(location.server)", "away": "\(away)",
            ])
        }
    }

    /// Lets every pool go and waits for them to end, but no longer than `closeLimit`: a pool whose
    /// connection died unseen may never end, and the server's stop must (it exits all the same).
    func close() async {
        let (tasks, probing) = state.withLock { state -> ([Task<Void, Never>], Task<Void, Never>?) in
            state.closed = true
            state.pool.running.cancel()
            for task in state.retired { task.cancel() }
            return (state.retired + [state.pool.running], state.probing)
        }
        probing?.cancel()
        let ended = AsyncStream.makeStream(of: Void.self)
        Task {
            for task in tasks { await task.value }
            ended.continuation.yield()
        }
        Task {
            try? await Task.sleep(for: Self.closeLimit)
            ended.continuation.yield()
        }
        for await _ in ended.stream { break }
        ended.continuation.finish()
    }

    /// The longest `close` waits for the pools to end.
    static let closeLimit: Duration = .seconds(2)

    /// Whether `error` means the connection is gone (rather than a statement refused): the
    /// server closed it or is shutting down, the network failed, the pool could not connect.
    static func isConnectionLost(_ error: any Error) -> Bool {
        switch error {
        case let error as PSQLError:
            switch error.code {
            case .serverClosedConnection, .connectionError, .uncleanShutdown, .clientClosedConnection, .poolClosed:
                return true
            case .server:
                // 57P01-57P03: the server is shutting down, crashed, or not yet accepting; 08…: connection exceptions.
                let state = error.serverInfo?[.sqlState] ?? ""
                return state.hasPrefix("57P") || state.hasPrefix("08")
            default:
                return false
            }
        case let error as ConnectionPoolError:
            return error == .poolShutdown || error == .connectionCreationCircuitBreakerTripped
        default:
            return false
        }
    }

    /// What broke, said shortly (PSQLError's own description hides everything).
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return message }
        return error.underlying.map { "\($0)" } ?? "\(error.code)"
    }
}
