@testable import App
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// A server on a fresh temporary database, driven without a socket.
struct TestShop {
    static let adminPassword = "admin-test-pw"
    let folder: URL
    /// The shop's clock, which a test may move; it starts at 2026-11-23 10:00 in Seoul.
    let clock = TestClock(Date(timeIntervalSince1970: 1_795_395_600))
    static let seoul = TimeZone(identifier: "Asia/Seoul")!
    var databasePath: String { folder.appendingPathComponent("shop.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("juicemaker-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Kakao login's provider and client id; off when nil.
    var openID: OpenIDSettings?

    /// The server's configuration: this shop's database and clock.
    var configuration: ServerConfiguration {
        // A cheap bcrypt cost keeps sign-ins fast in tests; the server's default is 12.
        var configuration = ServerConfiguration(
            database: databasePath, adminPassword: Self.adminPassword, bcryptCost: 4, logLevel: .warning,
            timeZone: Self.seoul, clock: { [clock] in clock.now })
        configuration.openID = openID
        return configuration
    }

    func run(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await buildApplication(configuration)
        try await app.test(.router, test)
    }
}

/// A clock a test moves by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

extension TestClientProtocol {
    @discardableResult
    func json(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, cookie: String? = nil,
              headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let cookie { headers.signIn(cookie) }
        headers.append(contentsOf: extra)
        return try await execute(uri: uri, method: method, headers: headers,
                                 body: body.map { ByteBuffer(string: $0) }) { $0 }
    }

    /// Posts a page's URL-encoded `form` as a browser does, from the page at `page`: with that
    /// page's anti-CSRF field and, signed out (`cookie` nil), the pre-session cookie it set.
    func postForm(_ uri: String, _ form: String, cookie: String? = nil, from page: String = "/login",
                  headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var pageHeaders: HTTPFields = [:]
        if let cookie { pageHeaders[.cookie] = cookie }
        let shown = try await execute(uri: page, method: .get, headers: pageHeaders) { $0 }
        let token = try #require(shown.formToken, "\(page) holds no anti-CSRF field")
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        headers[.cookie] = cookie ?? shown.headers[.setCookie].map { String($0.split(separator: ";")[0]) }
        headers.append(contentsOf: extra)
        return try await execute(uri: uri, method: .post, headers: headers,
                                 body: ByteBuffer(string: "csrf_token=\(token)&" + form)) { $0 }
    }

    /// Signs in as the staff account a new shop makes, and returns the session cookie.
    func staffCookie() async throws -> String {
        try await signIn("admin", TestShop.adminPassword)
    }

    /// Signs in and returns the session cookie.
    func signIn(_ username: String, _ password: String) async throws -> String {
        let response = try await json(.post, "/api/session", #"{"username":"\#(username)","password":"\#(password)"}"#)
        let setCookie = response.headers[.setCookie] ?? ""
        return String(setCookie.split(separator: ";")[0])
    }

    /// Signs up a member and returns their session cookie.
    func memberCookie(_ username: String = "jimin", password: String = "member-pw-1") async throws -> String {
        try await json(.post, "/api/members", #"{"username":"\#(username)","password":"\#(password)","name":"지민"}"#)
        return try await signIn(username, password)
    }

    /// Sends a multipart form; `image` is sent as a file part when given.
    func multipart(_ uri: String, fields: [String: String], image: [UInt8]? = nil, cookie: String?,
                   headers extra: HTTPFields = [:]) async throws -> TestResponse {
        let boundary = "juicemaker-test-boundary"
        var body = ""
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        var buffer = ByteBuffer(string: body)
        if let image {
            buffer.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"x\"\r\n"
                               + "Content-Type: application/octet-stream\r\n\r\n")
            buffer.writeBytes(image)
            buffer.writeString("\r\n")
        }
        buffer.writeString("--\(boundary)--\r\n")
        var headers: HTTPFields = [.contentType: "multipart/form-data; boundary=\(boundary)"]
        if let cookie { headers.signIn(cookie) }
        headers.append(contentsOf: extra)
        return try await execute(uri: uri, method: .post, headers: headers, body: buffer) { $0 }
    }
}

extension HTTPFields {
    /// The session cookie `cookie` (`juicemaker_session=…`) and its anti-CSRF token, as a signed-in
    /// API client sends them.
    mutating func signIn(_ cookie: String) {
        self[.cookie] = cookie
        self[.csrfToken] = Self.csrfToken(cookie)
    }

    /// The anti-CSRF token of the session whose cookie is `cookie`.
    static func csrfToken(_ cookie: String) -> String {
        CSRFToken.token(for: String(cookie.split(separator: "=", maxSplits: 1).last ?? ""))
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The anti-CSRF field's value in the page this answered.
    var formToken: String? {
        guard let field = text.range(of: #"name="csrf_token" value=""#) else { return nil }
        return String(text[field.upperBound...].prefix { $0 != "\"" })
    }

    func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(buffer: body))
    }
}

struct ErrorBody: Decodable, Equatable {
    let error: String
    let message: String
}
