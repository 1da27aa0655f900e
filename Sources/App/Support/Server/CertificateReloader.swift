import Foundation
import Logging
import NIOSSL
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The HTTPS server's certificate and key as last read from their files. Every handshake asks for
/// the current one, so a reload reaches new connections while open ones keep theirs.
final class CertificateStore: Sendable {
    /// A certificate chain with its private key, read and checked together.
    struct Certificate: Sendable {
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        /// The same, as a handshake takes it.
        let override: NIOSSLContextConfigurationOverride

        init(_ files: TLSFiles) throws {
            chain = try NIOSSLCertificate.fromPEMFile(files.certificate)
            key = try NIOSSLPrivateKey(file: files.privateKey, format: .pem)
            // Building a context refuses a file without a certificate and a key that isn't the certificate's.
            _ = try NIOSSLContext(configuration: TLSSettings.server(chain: chain, key: key))
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = chain.map { .certificate($0) }
            override.privateKey = .privateKey(key)
            self.override = override
        }

        /// The server's own certificate's serial number and end of validity, for the log.
        var metadata: Logger.Metadata {
            guard let leaf = chain.first else { return [:] }
            let serial = leaf.serialNumber.map { String(format: "%02x", $0) }.joined()
            let expiry = Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter))
            return ["serial": "\(serial)", "notValidAfter": "\(expiry.ISO8601Format())"]
        }
    }

    let files: TLSFiles
    private let certificate: Mutex<Certificate>

    init(files: TLSFiles) throws {
        self.files = files
        certificate = Mutex(try Certificate(files))
    }

    var current: Certificate {
        certificate.withLock { $0 }
    }

    /// Reads the files again; when they don't hold a good certificate and key, the current one stays.
    func reload() throws -> Certificate {
        let fresh = try Certificate(files)
        certificate.withLock { $0 = fresh }
        return fresh
    }
}

/// Reads the certificate again on SIGHUP (`systemctl reload`, certbot's deploy hook), without a
/// restart and without touching open connections.
struct CertificateReloader: Service {
    let certificates: CertificateStore
    /// Trapped when the server is built, before it listens, so an early SIGHUP can't end the process.
    let hangups: UnixSignalsSequence
    let logger: Logger

    init(certificates: CertificateStore, logger: Logger) async {
        self.certificates = certificates
        self.logger = logger
        hangups = await UnixSignalsSequence(trapping: .sighup)
    }

    func run() async {
        for await _ in hangups.cancelOnGracefulShutdown() {
            do {
                let fresh = try certificates.reload()
                logger.notice("reloaded the TLS certificate", metadata: fresh.metadata)
            } catch {
                logger.error("could not reload the TLS certificate; new connections keep the old one", metadata: [
                    "certificate": "\(certificates.files.certificate)", "key": "\(certificates.files.privateKey)",
                    "error": "\(error)",
                ])
            }
        }
    }
}
