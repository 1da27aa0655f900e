import HTTPTypes
import Testing
@testable import App

/// Who the client is, as the proxies in front say: believed only from a trusted peer, and then
/// only up to the first hop that is not itself a trusted proxy.
@Suite struct TrustedProxiesTests {
    let proxies = try! TrustedProxies(["127.0.0.1", "10.0.0.0/8", "2001:db8::/32"])

    func origin(peer: String, _ fields: [(String, String)]) -> TrustedProxies.Origin {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return proxies.origin(peer: peer, headers: headers)
    }

    @Test func anUntrustedPeerIsTheClientWhateverItsHeadersSay() {
        #expect(origin(peer: "198.51.100.7", [("X-Forwarded-For", "203.0.113.5"), ("X-Forwarded-Proto", "https")])
                == .init(client: "198.51.100.7", scheme: nil))
        #expect(origin(peer: "198.51.100.7", [("Forwarded", "for=203.0.113.5;proto=https")])
                == .init(client: "198.51.100.7", scheme: nil))
    }

    @Test func theRightmostHopNotItselfTrustedIsTheClient() {
        // A client wrote a hop of its own to the left; the proxies appended what they saw.
        #expect(origin(peer: "127.0.0.1", [("X-Forwarded-For", "1.2.3.4, 203.0.113.5, 10.1.2.3"), ("X-Forwarded-Proto", "https")])
                == .init(client: "203.0.113.5", scheme: "https"))
        #expect(origin(peer: "127.0.0.1", [("X-Forwarded-For", "203.0.113.5"), ("X-Forwarded-For", "10.1.2.3")])
                == .init(client: "203.0.113.5", scheme: nil))
    }

    @Test func forwardedIsReadWithQuotesPortsAndIPv6() {
        #expect(origin(peer: "127.0.0.1", [("Forwarded", #"for="[2001:db9::17]:4711";proto=HTTPS, for=10.0.0.9"#)])
                == .init(client: "2001:db9::17", scheme: "https"))
        #expect(origin(peer: "127.0.0.1", [("Forwarded", "for=192.0.2.60:8080;proto=http;by=10.0.0.1")])
                == .init(client: "192.0.2.60", scheme: "http"))
        // `Forwarded` is the standard: when both are there, it is the one read.
        #expect(origin(peer: "127.0.0.1", [("Forwarded", "for=192.0.2.60"), ("X-Forwarded-For", "203.0.113.5")]).client
                == "192.0.2.60")
    }

    @Test func aSchemeWithoutHopsIsThePeersOwn() {
        #expect(origin(peer: "127.0.0.1", [("X-Forwarded-Proto", "https")]) == .init(client: "127.0.0.1", scheme: "https"))
    }

    @Test func whenEveryHopIsTrustedTheFarthestIsTheClient() {
        #expect(origin(peer: "127.0.0.1", [("X-Forwarded-For", "10.0.0.2, 10.0.0.3")]).client == "10.0.0.2")
        #expect(origin(peer: "127.0.0.1", []) == .init(client: "127.0.0.1", scheme: nil))
    }

    @Test func networksMatchByPrefixAndMappedIPv4AsIPv4() {
        #expect(proxies.trusts("10.255.0.1"))
        #expect(!proxies.trusts("11.0.0.1"))
        #expect(proxies.trusts("::ffff:127.0.0.1"))
        #expect(proxies.trusts("2001:db8:1::1"))
        #expect(!proxies.trusts("2001:db9::1"))
        #expect(!proxies.trusts("not an address"))
        let odd = try! TrustedProxies(["192.168.0.0/23"])
        #expect(odd.trusts("192.168.1.200"))
        #expect(!odd.trusts("192.168.2.1"))
    }

    @Test(arguments: ["", "10.0.0.0/33", "::1/129", "10.0.0/8", "proxy.example", "10.0.0.1/x"])
    func aSpecificationThatIsNotAnAddressIsRefused(_ specification: String) {
        #expect(throws: TrustedProxies.Invalid.self) { try TrustedProxies([specification]) }
    }
}
