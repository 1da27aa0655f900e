import AsyncHTTPClient
import Foundation
import NIOCore

/// The provider's endpoints, each call bounded by the timeouts; any failure to get an answer is
/// `OpenIDError.providerUnavailable`.
struct ProviderHTTP: Sendable {
    let client: HTTPClient
    let timeouts: OpenIDTimeouts
    /// Discovery documents, key sets and token answers are small; anything bigger is not the protocol.
    static let largestBody = 1 << 20

    struct Answer: Sendable {
        let status: Int
        let body: Data
    }

    func getJSON<Value: Decodable>(_ url: String, as type: Value.Type) async throws -> Value {
        let answer = try await send(HTTPClientRequest(url: url))
        guard (200..<300).contains(answer.status) else {
            throw OpenIDError.providerUnavailable("GET \(url): status \(answer.status)")
        }
        return try Self.decode(type, from: answer.body, what: "GET \(url)")
    }

    /// An `application/x-www-form-urlencoded` POST; the caller judges the status.
    func postForm(_ url: String, fields: [(String, String)]) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(fields)))
        return try await send(request)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from body: Data, what: String) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw OpenIDError.providerUnavailable("\(what): not the expected JSON")
        }
    }

    private func send(_ request: HTTPClientRequest) async throws -> Answer {
        do {
            let response = try await client.execute(request, timeout: timeouts.request)
            let body = try await response.body.collect(upTo: Self.largestBody)
            return Answer(status: Int(response.status.code), body: Data(buffer: body))
        } catch {
            throw OpenIDError.providerUnavailable("\(request.method.rawValue) \(request.url): \(error)")
        }
    }
}

/// Percent-encoding for query strings and form bodies: everything but RFC 3986's unreserved characters,
/// so that a `+` or `&` in a value can never be read as something else.
enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
