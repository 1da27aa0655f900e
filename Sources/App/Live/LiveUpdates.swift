import Foundation
import Metrics
import NIOCore
import ServiceLifecycle
import Synchronization

/// One message on the live stream, framed once for every listener: an event (a name and its
/// JSON data) or a heartbeat comment.
public struct LiveEvent: Sendable, Hashable {
    /// The message in server-sent events framing. Every stream writes this same buffer (a
    /// reference to one storage), so a change is encoded once however many listen.
    let bytes: ByteBuffer

    init(name: String, payload: some Encodable) {
        let data = (try? apiEncoder.encode(payload)) ?? Data("{}".utf8)
        var bytes = ByteBuffer()
        bytes.reserveCapacity(name.utf8.count + data.count + 16)
        bytes.writeString("event: \(name)\ndata: ")
        bytes.writeBytes(data)
        bytes.writeString("\n\n")
        self.bytes = bytes
    }

    private init(comment: String) {
        bytes = ByteBuffer(string: ": \(comment)\n\n")
    }

    /// A comment pages ignore. Writing it is how the server finds a listener that left without
    /// a word: the write fails and the stream ends, instead of waiting for the next change.
    static let heartbeat = LiveEvent(comment: "heartbeat")
}

/// The one broadcaster every change is announced on; each open page listens through `/api/live`.
public final class LiveUpdates: Sendable {
    private struct Listeners {
        var continuations: [Int: AsyncStream<LiveEvent>.Continuation] = [:]
        var nextID = 0
    }

    private let listeners = Mutex(Listeners())
    private let gauge = Gauge(label: "juicemaker_live_streams")

    public init() {}

    /// Every event published from now on. A slow listener keeps only the newest few: each event
    /// carries whole state, so skipping an old one loses nothing.
    public func subscribe() -> LiveSubscription {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(8))
        let id = listeners.withLock { listeners in
            defer { listeners.nextID += 1 }
            listeners.continuations[listeners.nextID] = continuation
            gauge.record(listeners.continuations.count)
            return listeners.nextID
        }
        // The gauge is set under the lock: set after it, two streams ending at once could record
        // their counts out of order and leave a stale count that nothing corrects.
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            listeners.withLock { listeners in
                listeners.continuations.removeValue(forKey: id)
                gauge.record(listeners.continuations.count)
            }
        }
        return LiveSubscription(events: stream, continuation: continuation)
    }

    /// Whether any page listens now: work done only for listeners can be skipped.
    public var hasListeners: Bool { listeners.withLock { !$0.continuations.isEmpty } }

    /// Announces an event to every listener; it is made (and encoded) only when someone listens,
    /// and only once however many do.
    public func publish(_ makeEvent: @autoclosure () -> LiveEvent) {
        let continuations = listeners.withLock { Array($0.continuations.values) }
        guard !continuations.isEmpty else { return }
        let event = makeEvent()
        for continuation in continuations {
            continuation.yield(event)
        }
    }
}

/// One listener's events, which it can end (on the server's graceful shutdown, say).
public struct LiveSubscription: Sendable {
    let events: AsyncStream<LiveEvent>
    fileprivate let continuation: AsyncStream<LiveEvent>.Continuation

    /// Ends `events` after what is buffered.
    func end() { continuation.finish() }
}

/// Sends every listener a heartbeat at a steady interval while the server runs.
struct Heartbeat: Service {
    let live: LiveUpdates
    let interval: Duration

    func run() async {
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                live.publish(.heartbeat)
            }
        }
    }
}
