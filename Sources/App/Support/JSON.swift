import Foundation
import Hummingbird

/// JSON as the API writes it: ISO 8601 times, stable key order.
let apiEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
}()

extension Response {
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? apiEncoder.encode(value)) ?? Data(#"{"error":"internal","message":"encoding failed"}"#.utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Request {
    /// The largest JSON body the API reads.
    static let maximumJSONBody = 64 * 1024

    /// Decodes the body as JSON, answering 400 with the decoder's reason when it is not what the route needs.
    func decodeJSON<Value: Decodable>(_ type: Value.Type) async throws -> Value {
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: Self.maximumJSONBody)
        } catch {
            throw APIError(.contentTooLarge, "too_large", "the body is larger than \(Self.maximumJSONBody) bytes")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(buffer: buffer))
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw APIError(.badRequest, "bad_json", "the body is not valid JSON")
        } catch let error as DecodingError {
            throw APIError(.badRequest, "invalid_body", Self.describe(error))
        }
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type: "a whole number"
        case is String.Type: "a string"
        default: "a \(type)"
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, _): return "'\(key.stringValue)' is required"
        case .typeMismatch(let type, let context): return "'\(path(context))' must be \(kind(type))"
        case .valueNotFound(let type, let context): return "'\(path(context))' must be \(kind(type))"
        case .dataCorrupted(let context): return "'\(path(context))': \(context.debugDescription)"
        @unknown default: return "the body does not have the expected shape"
        }
    }
}
