import Foundation
import Hummingbird
import JuiceBar

/// Text made safe to put in HTML content or a quoted attribute.
func escapeHTML(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        case "'": escaped += "&#39;"
        default: escaped.append(character)
        }
    }
    return escaped
}

/// JSON safe to embed in a `<script type="application/json">` block.
func scriptJSON(_ value: some Encodable) -> String {
    let json = String(decoding: (try? apiEncoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    return json.replacingOccurrences(of: "<", with: "\\u003c")
}

/// The frame every page shares: our own stylesheet and scripts, no outside network.
func page(title: String, language: Language, body: String, scripts: [String] = []) -> Response {
    let html = """
        <!doctype html>
        <html lang="\(language.rawValue)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escapeHTML(title)) · JuiceMaker</title>
        <link rel="stylesheet" href="/assets/app.css">
        <link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
        </head>
        <body>
        \(body)
        \(scripts.map { "<script src=\"/assets/\($0)\" defer></script>" }.joined(separator: "\n"))
        </body>
        </html>
        """
    return htmlResponse(html)
}

func htmlResponse(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
             body: .init(byteBuffer: ByteBuffer(string: html)))
}

/// A link to the same page in the other language.
func languageSwitch(_ request: Request, _ language: Language, _ strings: Strings) -> String {
    let other: Language = language == .ko ? .en : .ko
    return "<a class=\"lang\" href=\"\(escapeHTML(request.uri.path))?lang=\(other.rawValue)\">\(strings.otherLanguage)</a>"
}
