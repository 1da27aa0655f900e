import Foundation
import NIOCore

/// JSON written by hand, for the one answer hot enough that JSONEncoder's generic machinery
/// shows in profiles: the order answer, where encoding was a tenth of the server's CPU under load.
/// Callers write keys sorted, so the text is what `apiEncoder` would write (a test checks).
struct JSONText {
    private(set) var buffer = ByteBufferAllocator().buffer(capacity: 256)
    /// Whether the next value or key follows another and needs a comma first.
    private var followsValue = false

    mutating func beginObject() {
        separate()
        buffer.writeInteger(UInt8(ascii: "{"))
        followsValue = false
    }

    mutating func endObject() {
        buffer.writeInteger(UInt8(ascii: "}"))
        followsValue = true
    }

    /// `"key":`, to be followed by its value.
    mutating func key(_ key: String) {
        string(key)
        buffer.writeInteger(UInt8(ascii: ":"))
        followsValue = false
    }

    mutating func string(_ value: String) {
        separate()
        buffer.writeInteger(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                buffer.writeInteger(UInt8(ascii: "\\"))
                buffer.writeInteger(byte)
            case 0..<0x20:
                buffer.writeString(String(format: "\\u%04x", byte))
            default:
                buffer.writeInteger(byte)
            }
        }
        buffer.writeInteger(UInt8(ascii: "\""))
        followsValue = true
    }

    mutating func integer(_ value: some BinaryInteger) {
        separate()
        buffer.writeString(String(value))
        followsValue = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        buffer.writeString(value ? "true" : "false")
        followsValue = true
    }

    /// A moment as `apiEncoder` writes it: ISO 8601 in UTC, whole seconds.
    mutating func date(_ value: Date) {
        string(value.formatted(Self.iso8601))
    }

    private static let iso8601 = Date.ISO8601FormatStyle()

    private mutating func separate() {
        if followsValue { buffer.writeInteger(UInt8(ascii: ",")) }
    }
}
