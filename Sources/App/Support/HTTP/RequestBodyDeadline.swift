import Foundation
import Hummingbird
import HummingbirdCore
import JuiceBar
import Metrics
import NIOCore
import NIOHTTPTypes
import ShopBasics

/// Cuts a request whose body does not arrive in time. The idle timeout closes a connection that
/// sends nothing, but a body trickled a byte every few seconds is never idle and would hold a
/// connection (and a handler waiting for it) for ever. From the moment a request's head is read,
/// its whole body must arrive within `timeout`; past it the client is answered 408 in its
/// language, unless an answer has begun, and the connection is closed.
final class RequestBodyDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var head: HTTPRequest?
    private var answering = false
    private static let cuts = Counter(label: "juicemaker_request_body_timeouts_total")

    init(timeout: Duration) {
        self.timeout = .init(timeout)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            head = request
            answering = false
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: timeout) {
                let (handler, context) = loopBound.value
                handler.cut(context)
            }
        case .body:
            break
        case .end:
            cancelDeadline()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head = unwrapOutboundIn(data) { answering = true }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
    }

    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }

    /// Answers 408 (when nothing was answered yet) and closes the connection.
    private func cut(_ context: ChannelHandlerContext) {
        deadline = nil
        Self.cuts.increment()
        guard !answering, let head else { return context.close(promise: nil) }
        let language = Language.preferred(by: Request(head: head, body: .init(buffer: ByteBuffer())))
        let body = ByteBuffer(bytes: Self.answer(in: language))
        // An HTTP/2 stream may not carry `Connection`, and closing it ends only this request, not the
        // other streams of its connection. A stream's parent is its connection, whose parent is the
        // listening channel; an HTTP/1.1 connection's parent is the listening channel itself.
        let isHTTP2Stream = context.channel.parent?.parent != nil
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8", .contentLength: "\(body.readableBytes)"]
        if !isHTTP2Stream { fields[.connection] = "close" }
        let response = HTTPResponse(status: .requestTimeout, headerFields: fields)
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            guard !isHTTP2Stream else { return bound.value.close(promise: nil) }
            // Output first: a byte still dripping in would make a full close a reset, which can
            // discard the answer on its way; the rest a moment later.
            bound.value.close(mode: .output, promise: nil)
            bound.value.eventLoop.scheduleTask(in: .seconds(1)) { bound.value.close(promise: nil) }
        }
    }

    /// The 408's JSON, as every refusal is written: its code and a message in the client's language.
    static func answer(in language: Language) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = ["error": "request_timeout", "message": Words.of(language).say(Message(.requestTimeout))]
        return Array((try? encoder.encode(body)) ?? Data())
    }
}
