import Foundation
import NIOCore

/// A request body read without `JSONDecoder`, when it is what nearly every body the API takes is:
/// one object of strings, whole numbers, booleans and nulls, in ASCII, strings without escapes.
/// `JSONDecoder`'s reading of an order's `{"juice":…,"pickup":true}` showed in `perf` (its scanner's
/// map, a dictionary of the keys, generic metadata); this reads it for far less (a loop of decodes;
/// see docs/performance.md). It reads only what it is sure of: for any other body, bad JSON and
/// every mismatch included, `decode` returns nil and `JSONDecoder` reads it, with its own reasons.
enum FlatJSON {
    static func decode<Value: Decodable>(_ type: Value.Type, from body: ByteBuffer) -> Value? {
        body.withUnsafeReadableBytes { bytes in
            var reader = Reader(bytes: bytes)
            guard let fields = reader.object() else { return nil }
            return try? Value(from: ObjectDecoder(fields: fields))
        }
    }

    enum Value {
        case text(String)
        case whole(Int)
        case bool(Bool)
        case null
    }

    typealias Fields = [(key: String, value: Value)]

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var at = 0

        /// The object and nothing after it but white space; nil if a key comes twice.
        mutating func object() -> Fields? {
            var fields: Fields = []
            skipSpace()
            guard take("{") else { return nil }
            skipSpace()
            if !take("}") {
                repeat {
                    skipSpace()
                    guard let key = text() else { return nil }
                    skipSpace()
                    guard take(":") else { return nil }
                    skipSpace()
                    guard let value = value(), !fields.contains(where: { $0.key == key }) else { return nil }
                    fields.append((key, value))
                    skipSpace()
                } while take(",")
                guard take("}") else { return nil }
            }
            skipSpace()
            return at == bytes.count ? fields : nil
        }

        mutating func value() -> Value? {
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "\""): return text().map(Value.text)
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return word("null") ? .null : nil
            default: return whole().map(Value.whole)
            }
        }

        /// A string of ASCII without escapes or control characters.
        mutating func text() -> String? {
            guard take("\"") else { return nil }
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
                guard bytes[at] >= 0x20, bytes[at] < 0x80, bytes[at] != UInt8(ascii: "\\") else { return nil }
                at += 1
            }
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        }

        /// `-?(0|[1-9][0-9]*)` within `Int`, with no fraction or exponent after it.
        mutating func whole() -> Int? {
            let negative = take("-")
            let start = at
            var magnitude = 0
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) {
                let (tens, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflowedAgain) = tens.addingReportingOverflow(Int(bytes[at] - UInt8(ascii: "0")))
                guard !overflowed, !overflowedAgain else { return nil }
                magnitude = sum
                at += 1
            }
            guard at > start, at == start + 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            guard at == bytes.count || !".eE".utf8.contains(bytes[at]) else { return nil }
            return negative ? -magnitude : magnitude
        }

        mutating func word(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - at >= count, memcmp(bytes.baseAddress! + at, word.utf8Start, count) == 0 else { return false }
            at += count
            return true
        }

        mutating func take(_ byte: Unicode.Scalar) -> Bool {
            guard at < bytes.count, bytes[at] == UInt8(ascii: byte) else { return false }
            at += 1
            return true
        }

        mutating func skipSpace() {
            while at < bytes.count, " \t\n\r".utf8.contains(bytes[at]) { at += 1 }
        }
    }

    /// Whatever a value's `init(from:)` asks that this does not read throws, and the body goes to
    /// `JSONDecoder`.
    private struct NotFlat: Error {}

    private struct ObjectDecoder: Decoder {
        let fields: Fields
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Members(fields: fields))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotFlat() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw NotFlat() }
    }

    private struct Members<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let fields: Fields
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { fields.compactMap { Key(stringValue: $0.key) } }

        func contains(_ key: Key) -> Bool { fields.contains { $0.key == key.stringValue } }

        private func value(_ key: Key) throws -> Value {
            guard let field = fields.first(where: { $0.key == key.stringValue }) else { throw NotFlat() }
            return field.value
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard case .null = try value(key) else { return false }
            return true
        }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            guard case .bool(let bool) = try value(key) else { throw NotFlat() }
            return bool
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            guard case .text(let text) = try value(key) else { throw NotFlat() }
            return text
        }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            guard case .whole(let whole) = try value(key) else { throw NotFlat() }
            return whole
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw NotFlat() }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey> { throw NotFlat() }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw NotFlat() }
        func superDecoder() throws -> any Decoder { throw NotFlat() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw NotFlat() }
    }
}
