import Foundation
import Hummingbird

/// JSON safe to embed in a `<script type="application/json">` block.
func scriptJSON(_ value: some Encodable) -> String {
    let json = String(decoding: (try? apiEncoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    return json.replacingOccurrences(of: "<", with: "\\u003c")
}

func htmlResponse(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
             body: .init(byteBuffer: ByteBuffer(string: html)))
}
