import HummingbirdCore
import HummingbirdHTTP2
import Logging
import NIOCore
import NIOSSL
import NIOTLS
import ServiceLifecycle

/// The files an HTTPS server reads its certificate from, both PEM: the certificate file may hold
/// the chain after the server's own certificate (certbot's `fullchain.pem`).
public struct TLSFiles: Sendable {
    public var certificate: String
    public var privateKey: String

    public init(certificate: String, privateKey: String) {
        self.certificate = certificate
        self.privateKey = privateKey
    }
}

extension HTTPServerBuilder {
    /// HTTPS within `limits`: HTTP/2 offered by ALPN, HTTP/1.1 for clients that don't take it.
    /// Each handshake is offered the store's current certificate, so a reload reaches new connections.
    static func https(certificates: CertificateStore, limits: ConnectionLimits) -> HTTPServerBuilder {
        let tls = TLSSettings.server(certificates)
        let http2 = HTTP2ChannelConfiguration(
            idleTimeout: limits.idleTimeout, streamConfiguration: limits.http1Configuration)
        let counter = ConnectionCounter(maximum: limits.maximum)
        return HTTPServerBuilder { responder in
            LimitedTLSChannel(
                inner: try HTTP2UpgradeChannel(tlsConfiguration: tls, configuration: http2, responder: responder),
                counter: counter, handshakeTimeout: .init(limits.idleTimeout))
        }
    }
}

/// What the server accepts: TLS 1.2 and 1.3 only; for 1.2, forward-secret key exchange (ECDHE) with
/// AEAD ciphers only (TLS 1.3's own suites are all AEAD).
enum TLSSettings {
    static let cipherSuites: [NIOTLSCipher] = [
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ]

    static func server(chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) -> TLSConfiguration {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        tls.minimumTLSVersion = .tlsv12
        tls.maximumTLSVersion = .tlsv13
        tls.cipherSuiteValues = cipherSuites
        return tls
    }

    /// The settings with the store's current certificate, asked for again at every handshake.
    static func server(_ certificates: CertificateStore) -> TLSConfiguration {
        let first = certificates.current
        var tls = server(chain: first.chain, key: first.key)
        tls.sslContextCallback = { _, promise in promise.succeed(certificates.current.override) }
        return tls
    }
}

/// HTTPS connections, at most the counter's maximum at once. One past it is closed at once: over TLS
/// the plain-text 503 of `LimitedHTTP1Channel` would be noise to the client, and answering it would
/// first cost a handshake.
struct LimitedTLSChannel: ServerChildChannel {
    typealias Value = AdmittedConnection<HTTP2UpgradeChannel.Value>

    let inner: HTTP2UpgradeChannel
    let counter: ConnectionCounter
    /// How long the handshake may take: HTTP's idle timeout only starts once it is done.
    let handshakeTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard counter.admit(channel) else {
            channel.close(promise: nil)
            return channel.eventLoop.makeSucceededFuture(Value(channel: channel, admitted: nil))
        }
        let timeout = handshakeTimeout
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { admitted in
            let operations = channel.pipeline.syncOperations
            let tls = try operations.handler(type: NIOSSLServerHandler.self)
            try operations.addHandler(HandshakeDeadline(timeout: timeout), position: .after(tls))
            return Value(channel: channel, admitted: admitted)
        }
    }

    func handle(value: Value, logger: Logger) async {
        guard let admitted = value.admitted else { return }
        await inner.handle(value: admitted, logger: logger)
    }
}

/// Closes a connection whose TLS handshake is not done in time, so that a client that connects and
/// sends nothing does not hold a connection for ever; it steps aside once the handshake is done.
final class HandshakeDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        context.fireUserInboundEventTriggered(event)
        if case .handshakeCompleted = event as? TLSUserEvent {
            deadline?.cancel()
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}

/// How the server speaks: plain HTTP/1.1, or HTTPS with the service that reloads its certificate.
struct ServerTransport {
    let builder: HTTPServerBuilder
    let services: [any Service]

    init(_ configuration: ServerConfiguration, logger: Logger) async throws {
        guard let files = configuration.tls else {
            builder = .http1(limits: configuration.connections)
            services = []
            return
        }
        let certificates = try CertificateStore(files: files)
        builder = .https(certificates: certificates, limits: configuration.connections)
        services = [await CertificateReloader(certificates: certificates, logger: logger)
            .saying("stopped reloading the certificate on SIGHUP", to: logger)]
    }
}
