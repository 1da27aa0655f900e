import Foundation
import Synchronization

/// One change, encoded once for every listener: a server-sent event's name and JSON data.
public struct LiveEvent: Sendable, Hashable {
    public let name: String
    public let data: String

    init(name: String, payload: some Encodable) {
        self.name = name
        data = String(decoding: (try? apiEncoder.encode(payload)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The event in server-sent events framing.
    var serverSentEvent: String { "event: \(name)\ndata: \(data)\n\n" }
}

/// The one broadcaster every change is announced on; each open page listens through `/api/live`.
public final class LiveUpdates: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<LiveEvent>.Continuation]>([:])

    public init() {}

    /// A stream of every event published from now on. A slow listener keeps only the newest few:
    /// each event carries whole state, so skipping an old one loses nothing.
    public func subscribe() -> AsyncStream<LiveEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(8))
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.removeValue(forKey: id) }
        }
        listeners.withLock { $0[id] = continuation }
        return stream
    }

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
