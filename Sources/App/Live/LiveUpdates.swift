import Foundation
import Metrics
import ServiceLifecycle
import Synchronization

/// One message on the live stream, framed once for every listener: an event (a name and its
/// JSON data) or a heartbeat comment.
public struct LiveEvent: Sendable, Hashable {
    /// The message in server-sent events framing.
    let serverSentEvent: String

    init(name: String, payload: some Encodable) {
        let data = String(decoding: (try? apiEncoder.encode(payload)) ?? Data("{}".utf8), as: UTF8.self)
        serverSentEvent = "event: \(name)\ndata: \(data)\n\n"
    }

    private init(comment: String) {
        serverSentEvent = ": \(comment)\n\n"
    }

    /// A comment pages ignore. Writing it is how the server finds a listener that left without
    /// a word: the write fails and the stream ends, instead of waiting for the next change.
    static let heartbeat = LiveEvent(comment: "heartbeat")
}

/// The one broadcaster every change is announced on; each open page listens through `/api/live`.
public final class LiveUpdates: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<LiveEvent>.Continuation]>([:])
    private let gauge = Gauge(label: "juicemaker_live_streams")

    public init() {}

    /// A stream of every event published from now on. A slow listener keeps only the newest few:
    /// each event carries whole state, so skipping an old one loses nothing.
    public func subscribe() -> AsyncStream<LiveEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(8))
        // The gauge is set under the lock: set after it, two streams ending at once could record
        // their counts out of order and leave a stale count that nothing corrects.
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            listeners.withLock { listeners in
                listeners.removeValue(forKey: id)
                gauge.record(listeners.count)
            }
        }
        listeners.withLock { listeners in
            listeners[id] = continuation
            gauge.record(listeners.count)
        }
        return stream
    }

    /// Whether any page listens now: work done only for listeners can be skipped.
    public var hasListeners: Bool { listeners.withLock { !$0.isEmpty } }

    /// Announces an event to every listener; it is made (and encoded) only when someone listens.
    public func publish(_ makeEvent: @autoclosure () -> LiveEvent) {
        let continuations = listeners.withLock { Array($0.values) }
        guard !continuations.isEmpty else { return }
        let event = makeEvent()
        for continuation in continuations {
            continuation.yield(event)
        }
    }
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
