import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import Synchronization

/// How many connections the server holds at once and how long it waits for them.
public struct ConnectionLimits: Sendable {
    /// The most connections open at once; one more is answered 503 `too_many_connections`.
    public var maximum: Int
    /// How long a connection may take to send a whole request head, and may sit idle between
    /// requests, before it is closed. A response being written (a live stream) is not idle.
    public var idleTimeout: Duration
    /// How long a request's body may take to arrive once its head has (`RequestBodyDeadline`).
    public var bodyTimeout: Duration

    public init(maximum: Int = 4096, idleTimeout: Duration = .seconds(15), bodyTimeout: Duration = .seconds(30)) {
        self.maximum = maximum
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
    }

    /// `maximum`, lowered to leave room under the process's file-descriptor limit for what else
    /// the server opens (database files and connections, logs, timers): a server at its limit
    /// refuses connections cleanly instead of failing to open a file it needs.
    public func fitted(toDescriptorLimit limit: Int) -> ConnectionLimits {
        var fitted = self
        let reserve = max(128, limit / 8)
        fitted.maximum = max(1, min(maximum, limit - reserve))
        return fitted
    }
}

extension ConnectionLimits {
    /// How each HTTP/1.1 connection, or HTTP/2 stream over HTTPS, is read.
    var http1Configuration: HTTP1Channel.Configuration {
        .init(additionalChannelHandlers: [RequestBodyDeadline(timeout: bodyTimeout)], idleTimeout: .init(idleTimeout))
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 within `limits`.
    static func http1(limits: ConnectionLimits) -> HTTPServerBuilder {
        let counter = ConnectionCounter(maximum: limits.maximum)
        return HTTPServerBuilder { responder in
            LimitedHTTP1Channel(
                inner: HTTP1Channel(responder: responder, configuration: limits.http1Configuration),
                counter: counter)
        }
    }
}

/// The open connections, counted as they open and close.
final class ConnectionCounter: Sendable {
    private let open = Atomic(0)
    let maximum: Int
    private let gauge = Gauge(label: "juicemaker_open_connections")
    private let refusals = Counter(label: "juicemaker_refused_connections_total")

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// Counts one more connection; false (and nothing counted) when the server is full.
    private func admit() -> Bool {
        var current = open.load(ordering: .relaxed)
        while current < maximum {
            let (exchanged, original) = open.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged {
                gauge.record(current + 1)
                return true
            }
            current = original
        }
        refusals.increment()
        return false
    }

    func release() {
        gauge.record(open.subtract(1, ordering: .relaxed).newValue)
    }

    /// Counts `channel` until it closes; false (and nothing counted) when the server is full.
    func admit(_ channel: any Channel) -> Bool {
        guard admit() else { return false }
        channel.closeFuture.whenComplete { _ in self.release() }
        return true
    }

    /// Refused connections still open for their answer to get through; they hold a descriptor each.
    private let refusing = Atomic(0)
    /// The most refused connections kept open at once; beyond it they are closed at once.
    static let maximumRefusing = 64

    /// Counts one more refused connection kept open a moment; false when too many already are.
    func beginRefusing() -> Bool {
        guard refusing.add(1, ordering: .relaxed).newValue <= Self.maximumRefusing else {
            refusing.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func endRefusing() {
        refusing.subtract(1, ordering: .relaxed)
    }
}

/// A connection a limited channel took: the protocol's own value, or nil when it was refused.
struct AdmittedConnection<Admitted: ServerChildChannelValue>: ServerChildChannelValue {
    let channel: any Channel
    let admitted: Admitted?
}

/// HTTP/1.1 connections, at most the counter's maximum at once.
struct LimitedHTTP1Channel: ServerChildChannel {
    typealias Value = AdmittedConnection<HTTP1Channel.Value>

    let inner: HTTP1Channel
    let counter: ConnectionCounter

    /// The whole answer to a connection beyond the limit.
    static let refusal: String = {
        let body = #"{"error":"too_many_connections","message":"the shop is busy; try again in a moment"}"#
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Retry-After: 1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
    }()

    /// A connection keeps its last read buffer while it waits, and most connections wait: a live
    /// stream for hours. NIO's 2 KB start was much of an idle stream; bigger requests grow it.
    static let readBuffers = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65_536)

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard counter.admit(channel) else {
            Self.refuse(channel, counter: counter)
            return channel.eventLoop.makeSucceededFuture(Value(channel: channel, admitted: nil))
        }
        try? channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.readBuffers)
        return inner.setup(channel: channel, logger: logger).map { Value(channel: channel, admitted: $0) }
    }

    func handle(value: Value, logger: Logger) async {
        guard let admitted = value.admitted else { return }
        await inner.handle(value: admitted, logger: logger)
    }

    /// Answers 503 and closes. The closing waits a moment after the answer is sent, so that a
    /// request still arriving does not make the close a reset that discards the answer; under a
    /// flood of refusals (each waiting one holds a descriptor) they are closed at once.
    private static func refuse(_ channel: any Channel, counter: ConnectionCounter) {
        let lingers = counter.beginRefusing()
        channel.writeAndFlush(ByteBuffer(string: refusal)).whenComplete { _ in
            guard lingers else { return channel.close(promise: nil) }
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: .seconds(1)) {
                counter.endRefusing()
                channel.close(promise: nil)
            }
        }
    }
}
