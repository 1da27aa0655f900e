import Crypto
import Foundation

/// Proof Key for Code Exchange (RFC 7636), method S256.
enum PKCE {
    /// A fresh code verifier: 256 random bits, base64url (43 characters).
    static func verifier() -> String {
        RandomToken.make()
    }

    /// base64url(SHA-256(verifier)), no padding: the `code_challenge` sent with the authorization request.
    static func challenge(of verifier: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
    }
}

/// A random URL-safe token for state, nonce and the browser binding: 256 bits.
enum RandomToken {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    /// Whether `text` has the shape of a token `make` made: 43 characters of base64url.
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 43 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}

enum Base64URL {
    /// Base64url without padding (RFC 4648 §5), as PKCE and JWTs write it.
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Base64url with or without padding; nil when it is not.
    static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
