#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HTTPTypes
import Hummingbird

/// The proxies in front of the shop (`--trusted-proxy 127.0.0.1`, `--trusted-proxy 10.0.0.0/8`):
/// only a request that arrives from one of them has its `Forwarded` or `X-Forwarded-For` and
/// `X-Forwarded-Proto` headers believed. From any other peer they are ignored, since anyone can
/// write them.
public struct TrustedProxies: Sendable {
    /// One network: an address's first `prefix` bits.
    struct Network: Sendable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            let whole = prefix / 8, rest = prefix % 8
            guard address.prefix(whole).elementsEqual(bytes.prefix(whole)) else { return false }
            guard rest > 0 else { return true }
            let mask = UInt8(0xFF) << (8 - rest)
            return address[whole] & mask == bytes[whole] & mask
        }
    }

    private let networks: [Network]

    public static let none = TrustedProxies(networks: [])

    private init(networks: [Network]) {
        self.networks = networks
    }

    /// Reads each `ADDR` or `ADDR/PREFIX` (IPv4 or IPv6); throws naming the first that is neither.
    public init(_ specifications: [String]) throws(Invalid) {
        var networks: [Network] = []
        for specification in specifications {
            let parts = specification.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let bytes = Self.address(parts[0]) else { throw Invalid(specification: specification) }
            let bits = bytes.count * 8
            let prefix = parts.count == 2 ? Int(parts[1]) : bits
            guard let prefix, (0...bits).contains(prefix) else { throw Invalid(specification: specification) }
            networks.append(Network(bytes: bytes, prefix: prefix))
        }
        self.networks = networks
    }

    /// A `--trusted-proxy` that is not an address or a network.
    public struct Invalid: Error, CustomStringConvertible {
        public let specification: String
        public var description: String { "--trusted-proxy \(specification) is not an address or ADDR/PREFIX" }
    }

    public var isEmpty: Bool { networks.isEmpty }

    func trusts(_ address: String) -> Bool {
        guard let bytes = Self.address(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// Where a request really comes from: its client and, when the proxies say, the scheme the
    /// client used. From a trusted peer the forwarding hops are walked from the nearest: the
    /// first address that is not itself a trusted proxy is the client (what the last trusted
    /// proxy saw), since a client can write any hops it likes only to the left of that one.
    func origin(peer: String, headers: HTTPFields) -> Origin {
        guard trusts(peer) else { return Origin(client: peer, scheme: nil) }
        let hops = Self.forwarded(headers) ?? Self.xForwarded(headers)
        guard !hops.isEmpty else {
            // A proxy that names no client still says how the client (the peer itself) came.
            return Origin(client: peer, scheme: Self.list(headers[values: .xForwardedProto]).last?.lowercased())
        }
        let client = hops.lastIndex { !trusts($0.client) } ?? hops.startIndex
        return Origin(client: hops[client].client, scheme: hops[client].scheme)
    }

    struct Origin: Equatable {
        let client: String
        /// `https` or `http` as the proxy that met the client said; nil when none said.
        let scheme: String?
    }

    /// One proxy's word about the connection it received: from whom, and over which scheme.
    struct Hop {
        let client: String
        let scheme: String?
    }

    /// The hops of RFC 7239's `Forwarded`, farthest first; nil when there is no such header.
    static func forwarded(_ headers: HTTPFields) -> [Hop]? {
        let values = headers[values: .forwarded]
        guard !values.isEmpty else { return nil }
        return values.flatMap { $0.split(separator: ",") }.map { element in
            var client = "unknown", scheme: String?
            for pair in element.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""])
                switch parts[0].trimmingCharacters(in: .whitespaces).lowercased() {
                case "for": client = hostOnly(value)
                case "proto": scheme = value.lowercased()
                default: break
                }
            }
            return Hop(client: client, scheme: scheme)
        }
    }

    /// The hops of `X-Forwarded-For`, farthest first, each with the `X-Forwarded-Proto` value in
    /// the same place from the right; a single proto names the scheme of them all.
    static func xForwarded(_ headers: HTTPFields) -> [Hop] {
        let clients = list(headers[values: .xForwardedFor]).map(hostOnly)
        let schemes = list(headers[values: .xForwardedProto]).map { $0.lowercased() }
        return clients.enumerated().map { index, client in
            let scheme = schemes.count == clients.count ? schemes[index] : schemes.count == 1 ? schemes[0] : nil
            return Hop(client: client, scheme: scheme)
        }
    }

    private static func list(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `[2001:db8::1]:4711` → `2001:db8::1`; `192.0.2.1:80` → `192.0.2.1`; anything else as it is.
    static func hostOnly(_ node: String) -> String {
        if node.hasPrefix("["), let end = node.firstIndex(of: "]") {
            return String(node[node.index(after: node.startIndex)..<end])
        }
        if node.filter({ $0 == ":" }).count == 1, let colon = node.firstIndex(of: ":") {
            return String(node[..<colon])
        }
        return node
    }

    /// An IPv4 address's 4 bytes or an IPv6 address's 16 (an IPv4-mapped one as its IPv4 4).
    static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        return bytes.starts(with: mappedPrefix) ? Array(bytes.suffix(4)) : bytes
    }
}

extension HTTPField.Name {
    static let forwarded = Self("Forwarded")!
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
}
