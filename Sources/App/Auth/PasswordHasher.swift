import DequeModule
import Dispatch
import Synchronization

/// Runs password hashing (slow on purpose) on at most a few threads, taking clients in turn: each
/// client address has its own line and the lines are served round-robin, so a burst of sign-ins
/// from one client delays another client by at most one hash per busy client, not by the whole
/// burst. The lines are bounded; a hash that finds them full is refused at once as `busy`.
final class PasswordHasher: Sendable {
    private struct Lines {
        var waiting: [String: Deque<@Sendable () -> Void>] = [:]
        /// Clients with work waiting, in the order they are served.
        var turns: Deque<String> = []
        var count = 0
        var running = 0
    }

    private let lines = Mutex(Lines())
    private let threads: Int
    private let maximumWaiting: Int
    private let maximumPerClient: Int

    init(threads: Int, maximumWaiting: Int = 128, maximumPerClient: Int = 16) {
        self.threads = max(1, threads)
        self.maximumWaiting = maximumWaiting
        self.maximumPerClient = maximumPerClient
    }

    /// Runs `work` in `client`'s turn and returns its result; throws `APIError.busy` at once
    /// when too much is already waiting.
    func run<T: Sendable>(client: String, _ work: @escaping @Sendable () -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job: @Sendable () -> Void = { continuation.resume(returning: work()) }
            let decision = lines.withLock { lines -> (accepted: Bool, startWorker: Bool) in
                guard lines.count < maximumWaiting, lines.waiting[client, default: []].count < maximumPerClient else {
                    return (false, false)
                }
                if lines.waiting[client, default: []].isEmpty { lines.turns.append(client) }
                lines.waiting[client, default: []].append(job)
                lines.count += 1
                guard lines.running < threads else { return (true, false) }
                lines.running += 1
                return (true, true)
            }
            guard decision.accepted else { return continuation.resume(throwing: APIError.busy) }
            if decision.startWorker {
                DispatchQueue.global(qos: .userInitiated).async { self.work() }
            }
        }
    }

    /// Runs jobs, one client's at a time in turn, until none is waiting.
    private func work() {
        while let job = nextJob() { job() }
    }

    private func nextJob() -> (@Sendable () -> Void)? {
        lines.withLock { lines in
            guard let client = lines.turns.popFirst() else {
                lines.running -= 1
                return nil
            }
            let job = lines.waiting[client]!.removeFirst()
            if lines.waiting[client]!.isEmpty {
                lines.waiting[client] = nil
            } else {
                lines.turns.append(client)
            }
            lines.count -= 1
            return job
        }
    }
}
