import Foundation
import Hummingbird
import MultipartKit

extension Request {
    /// The largest multipart body read: room for a 2 MB image and its fields.
    static let maximumMultipartBody = 3 * 1024 * 1024

    /// Decodes a `multipart/form-data` body, answering 400 when it is not one or lacks a field.
    func decodeMultipart<Value: Decodable>(_ type: Value.Type) async throws -> Value {
        guard let contentType = headers[.contentType], contentType.lowercased().hasPrefix("multipart/form-data"),
              let boundary = contentType.split(separator: ";").lazy
                .map({ $0.trimmingCharacters(in: .whitespaces) })
                .first(where: { $0.lowercased().hasPrefix("boundary=") })
                .map({ String($0.dropFirst("boundary=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) })
        else {
            throw APIError(.badRequest, "not_multipart", .notMultipart)
        }
        // RFC 2046: 1 to 70 characters. The parser traps on an empty one, so it never gets one.
        guard (1...70).contains(boundary.utf8.count) else {
            throw APIError(.badRequest, "not_multipart", .invalidBoundary)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: Self.maximumMultipartBody)
        } catch {
            throw APIError(.contentTooLarge, "too_large", .tooLarge)
        }
        do {
            return try FormDataDecoder().decode(Value.self, from: buffer, boundary: boundary)
        } catch DecodingError.keyNotFound(let key, _) {
            throw APIError(.badRequest, "invalid_body", .missingField, ["field": .text(key.stringValue)])
        } catch {
            throw APIError(.badRequest, "invalid_body", .invalidForm)
        }
    }
}
