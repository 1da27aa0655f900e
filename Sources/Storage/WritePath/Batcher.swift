import NIOCore
import NIOPosix
import Synchronization

/// Takes requests one at a time and hands them on in batches: every request that arrived while
/// the previous batch was being handled goes into the next one. Under load a batch holds as many
/// requests as were waiting, so one transaction (one lock, one sync) serves them all; alone, a
/// request is a batch of one and waits for nothing. A handler may let the requests that came
/// while it waited for its lock join the batch it holds the lock for (`Batch.join`).
final class Batcher<Request: Sendable, Response: Sendable>: Sendable {
    private typealias Waiting = (request: Request, continuation: CheckedContinuation<Response, any Error>)

    /// A batch being handled: the requests waiting when it started, and those the handler lets
    /// join later (`join`), answered in that order.
    struct Batch: Sendable {
        let requests: [Request]
        /// Takes the requests that came since, oldest first, while each `fits`, into this batch.
        let join: @Sendable (_ fits: (Request) -> Bool) -> [Request]
    }

    private let line: WaitingLine<Waiting>
    private let handle: @Sendable (Batch) async throws -> [Result<Response, any Error>]

    /// `handle` answers a batch with one result per request, in the order given and then the
    /// order joined; when it throws (the batch's transaction failed), every request of the batch
    /// gets that error.
    init(maximumBatch: Int = 512, handle: @escaping @Sendable (Batch) async throws -> [Result<Response, any Error>]) {
        line = WaitingLine(maximum: maximumBatch)
        self.handle = handle
    }

    func submit(_ request: Request) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            if line.add((request, continuation)) {
                Task(executorPreference: BatchThread.shared) { await self.handleUntilEmpty() }
            }
        }
    }

    private func handleUntilEmpty() async {
        while let taken = line.next() {
            let members = Mutex(taken)
            let results: [Result<Response, any Error>]
            do {
                results = try await handle(Batch(requests: taken.map(\.request)) { fits in
                    members.withLock { members in
                        let more = self.line.takeMore(upTo: self.line.maximum - members.count) { fits($0.request) }
                        members += more
                        return more.map(\.request)
                    }
                })
            } catch {
                results = members.withLock { $0 }.map { _ in .failure(error) }
            }
            let answered = members.withLock { $0 }
            precondition(results.count == answered.count, "a batch handler answers every request of its batch")
            for (waiting, result) in zip(answered, results) {
                waiting.continuation.resume(with: result)
            }
        }
    }
}

/// The thread every batch runs on. A batch resumes after each round trip to its database while
/// it holds that database's lock (on PostgreSQL, the part's lock for every server); on the shared
/// pool each resumption would wait behind every request being handled, so under load the lock
/// would be held mostly by waiting. Here it resumes at once (`scripts/bench-postgres`; see
/// docs/performance.md).
/// PostgreSQL's connections are served on the same thread (`group`), so an answer is read where
/// its batch resumes: not behind the requests on the server's own event loops, and not handed
/// from one thread to another on every round trip.
final class BatchThread: TaskExecutor {
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    static let shared = BatchThread(group.next())

    private let loop: any EventLoop

    private init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
