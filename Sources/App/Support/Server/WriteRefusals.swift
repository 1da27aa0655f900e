import Foundation
import Hummingbird
import Logging
import Metrics
import Storage
import Synchronization

/// Whether the shop takes writes now, as its own writes and its database connection find: a write
/// refused for the storage's trouble (a full disk, a database server away) marks the shop as
/// refusing, with the cause and since when; the next write that goes through, or the database
/// answering again, clears it. `/health` says so, and `juicemaker_refused_writes_total{cause}`
/// counts every write refused, by cause, so a monitor sees the fault and what it is.
final class WriteRefusals: Sendable {
    struct Refusing: Sendable, Equatable {
        /// The API's error code for the trouble: `storage_full`, `storage_unavailable`, …
        let cause: String
        let since: Date
    }

    private let state = Mutex<Refusing?>(nil)
    /// Read by every answered write, so a shop that takes its writes pays one atomic load.
    private let refusing = Atomic<Bool>(false)
    private let counters = Mutex<[String: Counter]>([:])
    private let logger: Logger
    private let now: @Sendable () -> Date

    init(logger: Logger = Logger(label: "juicemaker"), now: @escaping @Sendable () -> Date = Date.init) {
        self.logger = logger
        self.now = now
    }

    /// What is refused now; nil when writes are taken.
    var current: Refusing? { state.withLock { $0 } }

    /// A request failed with `error`: when it is the storage's trouble the shop is marked as
    /// refusing writes, and a write (`isWrite`) is counted under its cause.
    func failed(_ error: any Error, isWrite: Bool) {
        guard let cause = (error as? StorageError)?.refusalCause else { return }
        if isWrite { counter(cause).increment() }
        // A busy database took too long this once; it is not a fault that lasts.
        guard cause != "storage_busy" else { return }
        refuse(cause)
    }

    /// The database said it cannot be written to (its connection broke), with no request to count.
    /// The log says when refusing begins and ends (once each, not once a request: a full disk
    /// has no room for a line per refused order).
    func refuse(_ cause: String) {
        let began = state.withLock { refusing in
            guard refusing?.cause != cause else { return false }
            refusing = Refusing(cause: cause, since: now())
            return true
        }
        self.refusing.store(true, ordering: .releasing)
        if began { logger.warning("refusing writes", metadata: ["cause": "\(cause)"]) }
    }

    /// A write went through, or the database answers again: writes are taken.
    func cleared() {
        guard refusing.load(ordering: .acquiring) else { return }
        guard let ended = state.withLock({ refusing in defer { refusing = nil }; return refusing }) else { return }
        refusing.store(false, ordering: .releasing)
        logger.notice("taking writes again", metadata: ["cause": "\(ended.cause)", "since": "\(ended.since)"])
    }

    /// The counter of one cause, made once: a swift-metrics value made per request would ask the registry every time.
    private func counter(_ cause: String) -> Counter {
        counters.withLock { counters in
            if let known = counters[cause] { return known }
            let made = Counter(label: "juicemaker_refused_writes_total", dimensions: [("cause", cause)])
            counters[cause] = made
            return made
        }
    }

    /// Whether `method` asks to change something: a failure of one is a refused write.
    static func isWrite(_ method: HTTPRequest.Method) -> Bool {
        method != .get && method != .head && method != .options
    }

    /// What the health check says of a refusal, in words for people beside the codes for machines.
    static func messageKey(for cause: String) -> MessageKey {
        switch cause {
        case "storage_full": .storageFull
        case "storage_lost": .storageLost
        default: .storageUnavailable
        }
    }
}
