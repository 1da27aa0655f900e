import App
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Behind a proxy: the client and the scheme it tells are believed from a trusted proxy only,
/// and they decide a guest's idempotency scope, `Secure` cookies and HSTS. Over real sockets,
/// so that the peer is 127.0.0.1 as a proxy on the same machine would be.
@Suite struct ProxyTests {
    func run(trusting proxies: [String], _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let shop = try TestShop()
        defer { try? FileManager.default.removeItem(at: shop.folder) }
        var configuration = shop.configuration
        configuration.port = 0
        configuration.trustedProxies = try TrustedProxies(proxies)
        try await buildApplication(configuration).test(.live, test)
    }

    func guestOrder(_ client: any TestClientProtocol, key: String, from forwardedFor: String) async throws -> TestResponse {
        try await client.json(.post, "/api/orders", #"{"juice":"bananaJuice"}"#,
                              headers: [HTTPField.Name("Idempotency-Key")!: key, HTTPField.Name("X-Forwarded-For")!: forwardedFor])
    }

    @Test func fromATrustedProxyTwoClientsWithOneKeyAreTwoScopes() async throws {
        try await run(trusting: ["127.0.0.1"]) { client in
            let first = try await guestOrder(client, key: "same-key", from: "203.0.113.5")
            let second = try await guestOrder(client, key: "same-key", from: "198.51.100.7")
            #expect(first.status == .created && second.status == .created)
            #expect(second.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            let orders = try JSONSerialization.jsonObject(with: Data(buffer: try await client.json(.get, "/api/orders").body))
            #expect((orders as? [Any])?.count == 2)
        }
    }

    @Test func fromAnUntrustedPeerASpoofedForwardedForChangesNothing() async throws {
        try await run(trusting: []) { client in
            let first = try await guestOrder(client, key: "same-key", from: "203.0.113.5")
            let second = try await guestOrder(client, key: "same-key", from: "198.51.100.7")
            #expect(first.status == .created && second.status == .created)
            #expect(second.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(second.body == first.body)
        }
    }

    @Test func httpsFromATrustedProxyMakesCookiesSecureAndAddsHSTS() async throws {
        try await run(trusting: ["127.0.0.0/8"]) { client in
            let https: HTTPFields = [HTTPField.Name("X-Forwarded-Proto")!: "https"]
            let credentials = #"{"username":"admin","password":"\#(TestShop.adminPassword)"}"#
            let secure = try await client.json(.post, "/api/session?lang=en", credentials, headers: https)
            #expect(secure.status == .ok)
            #expect(secure.headers[HTTPField.Name("Strict-Transport-Security")!] == "max-age=31536000")
            let cookies = secure.headers[values: .setCookie]
            let session = try #require(cookies.first { $0.hasPrefix("__Host-juicemaker_session=") })
            #expect(session.contains("Secure") && session.contains("HttpOnly") && session.contains("Path=/"))
            #expect(!session.contains("Domain"))
            #expect(cookies.contains { $0.hasPrefix("juicemaker_lang=en") && $0.contains("Secure") })
            // The secure session is the one read over HTTPS, and only there.
            let cookie = String(session.split(separator: ";")[0])
            #expect(try await client.json(.get, "/api/me", cookie: cookie, headers: https).status == .ok)
            #expect(try await client.json(.get, "/api/me", cookie: cookie).status == .unauthorized)

            let plain = try await client.json(.post, "/api/session", credentials)
            #expect(plain.headers[HTTPField.Name("Strict-Transport-Security")!] == nil)
            let plainSession = try #require(plain.headers[values: .setCookie].first)
            #expect(plainSession.hasPrefix("juicemaker_session=") && !plainSession.contains("Secure"))
        }
    }

    @Test func anUntrustedPeerSayingHTTPSGetsNoSecureCookieNorHSTS() async throws {
        try await run(trusting: ["10.0.0.0/8"]) { client in
            let response = try await client.json(
                .post, "/api/session", #"{"username":"admin","password":"\#(TestShop.adminPassword)"}"#,
                headers: [HTTPField.Name("X-Forwarded-Proto")!: "https"])
            #expect(response.headers[HTTPField.Name("Strict-Transport-Security")!] == nil)
            #expect(response.headers[values: .setCookie].first?.hasPrefix("juicemaker_session=") == true)
        }
    }
}
