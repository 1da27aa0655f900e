import NIOCore
import NIOPosix

/// Takes requests one at a time and hands them on in batches: every request that arrived while
/// the previous batch was being handled goes into the next one. Under load a batch holds as many
/// requests as were waiting, so one transaction (one lock, one sync) serves them all; alone, a
/// request is a batch of one and waits for nothing.
final class Batcher<Request: Sendable, Response: Sendable>: Sendable {
    private typealias Waiting = (request: Request, continuation: CheckedContinuation<Response, any Error>)

    private let line: WaitingLine<Waiting>
    private let handle: @Sendable ([Request]) async throws -> [Result<Response, any Error>]

    /// `handle` answers a batch with one result per request, in the order given; when it throws
    /// (the batch's transaction failed), every request of the batch gets that error.
    init(maximumBatch: Int = 512, handle: @escaping @Sendable ([Request]) async throws -> [Result<Response, any Error>]) {
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
        while let batch = line.next() {
            let results: [Result<Response, any Error>]
            do {
                results = try await handle(batch.map(\.request))
            } catch {
                results = batch.map { _ in .failure(error) }
            }
            precondition(results.count == batch.count, "a batch handler answers every request of its batch")
            for (waiting, result) in zip(batch, results) {
                waiting.continuation.resume(with: result)
            }
        }
    }
}

/// The thread every batch runs on. A batch resumes after each round trip to its database while
/// it holds that database's lock (on PostgreSQL, the part's lock for every server); on the shared
/// pool each resumption would wait behind every request being handled, so under load the lock
/// would be held mostly by waiting. Here it resumes at once. `scripts/bench-postgres` on 2 cores:
/// one server from about 2,900 to 5,300–5,800 orders/s, two together from 3,300 to 5,300–5,800.
final class BatchThread: TaskExecutor {
    static let shared = BatchThread(MultiThreadedEventLoopGroup(numberOfThreads: 1).next())

    private let loop: any EventLoop

    private init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
