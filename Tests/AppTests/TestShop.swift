import App
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore

/// A server on a fresh temporary database, driven without a socket.
struct TestShop {
    static let adminPassword = "admin-test-pw"
    let folder: URL
    var databasePath: String { folder.appendingPathComponent("shop.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("juicemaker-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func run(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // A cheap bcrypt cost keeps sign-ins fast in tests; the server's default is 12.
        let app = try await buildApplication(ServerConfiguration(
            databasePath: databasePath, adminPassword: Self.adminPassword, bcryptCost: 4, logLevel: .warning))
        try await app.test(.router, test)
    }
}

extension TestClientProtocol {
    @discardableResult
    func json(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, cookie: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let cookie { headers[.cookie] = cookie }
        return try await execute(uri: uri, method: method, headers: headers,
                                 body: body.map { ByteBuffer(string: $0) }) { $0 }
    }

    /// Signs in as the staff account a new shop makes, and returns the session cookie.
    func staffCookie() async throws -> String {
        let response = try await json(.post, "/api/session", #"{"username":"admin","password":"\#(TestShop.adminPassword)"}"#)
        let setCookie = response.headers[.setCookie] ?? ""
        return String(setCookie.split(separator: ";")[0])
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(buffer: body))
    }
}

struct ErrorBody: Decodable, Equatable {
    let error: String
    let message: String
}
