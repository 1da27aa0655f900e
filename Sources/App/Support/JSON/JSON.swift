import Foundation
import Hummingbird

/// JSON as the API writes it: ISO 8601 times, stable key order.
let apiEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
}()

/// `value` as the API writes it; a value that cannot be encoded is an internal error's body.
func apiJSON(_ value: some Encodable) -> Data {
    (try? apiEncoder.encode(value)) ?? Data(#"{"error":"internal","message":"encoding failed"}"#.utf8)
}

extension Response {
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = apiJSON(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Request {
    /// The largest JSON body the API reads.
    static let maximumJSONBody = 64 * 1024
    /// One decoder for every request: it has no options to change, and a new one per request showed in perf.
    private static let jsonDecoder = JSONDecoder()

    /// Decodes the body as JSON, answering 400 with the decoder's reason when it is not what the route needs.
    func decodeJSON<Value: Decodable>(_ type: Value.Type) async throws -> Value {
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: Self.maximumJSONBody)
        } catch {
            throw APIError(.contentTooLarge, "too_large", .tooLarge)
        }
        if let value = FlatJSON.decode(Value.self, from: buffer) { return value }
        do {
            return try Self.jsonDecoder.decode(Value.self, from: Data(buffer: buffer))
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw APIError(.badRequest, "bad_json", .badJSON)
        } catch let error as DecodingError {
            throw Self.describe(error)
        }
    }

    private static func kind(_ type: Any.Type) -> ValueKind {
        switch type {
        case is Int.Type, is Int64.Type: .wholeNumber
        case is String.Type: .text
        default: .value
        }
    }

    /// Why the body is not what the route needs, naming the field by its path (`juice`, `name.ko`).
    static func describe(_ error: DecodingError) -> APIError {
        func field(_ context: DecodingError.Context) -> MessageValue {
            .text(context.codingPath.map(\.stringValue).joined(separator: "."))
        }
        let message = switch error {
        case .keyNotFound(let key, _): Message(.missingField, ["field": .text(key.stringValue)])
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            Message(.wrongType, ["field": field(context), "kind": .kind(kind(type))])
        case .dataCorrupted(let context): Message(.invalidValue, ["field": field(context)])
        @unknown default: Message(.badRequest)
        }
        return APIError(.badRequest, "invalid_body", message)
    }
}
