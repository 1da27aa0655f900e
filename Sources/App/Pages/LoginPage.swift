import Hummingbird
import JuiceBar

/// The sign-in form: `아이디`, `비밀번호`, `로그인`. It works without JavaScript.
struct LoginPage {
    let language: Language
    let strings: Strings
    let next: String
    let message: String?
    let username: String
    let request: Request

    func render(status: HTTPResponse.Status = .ok) -> Response {
        let error = message.map { "<p class=\"error\" role=\"alert\">\(escapeHTML($0))</p>" } ?? ""
        let body = """
            <header class="bar">
              <h1>\(escapeHTML(strings.signInTitle))</h1>
              <nav>\(languageSwitch(request, language, strings))</nav>
            </header>
            <main class="narrow">
              <form method="post" action="/login" class="card">
                \(error)
                <input type="hidden" name="next" value="\(escapeHTML(next))">
                <input type="hidden" name="lang" value="\(language.rawValue)">
                <label for="username">\(escapeHTML(strings.username))</label>
                <input id="username" name="username" autocomplete="username" required value="\(escapeHTML(username))">
                <label for="password">\(escapeHTML(strings.password))</label>
                <input id="password" name="password" type="password" autocomplete="current-password" required>
                <button type="submit">\(escapeHTML(strings.signIn))</button>
              </form>
              <p class="aside">\(escapeHTML(strings.noAccount)) <a href="/signup\(language == .en ? "?lang=en" : "")">\(escapeHTML(strings.signUp))</a></p>
            </main>
            """
        var response = page(title: strings.signInTitle, language: language, body: body)
        response.status = status
        return response
    }

    /// Only a path on this site may follow a sign-in, never another site; nil for anything else.
    /// Judged as a browser reads it: browsers drop tabs and line breaks anywhere in a URL and
    /// controls and spaces at its ends (so `/\t/evil.example` is `//evil.example`), and treat `\`
    /// as `/`.
    static func safeNext(_ candidate: String) -> String? {
        let browserStrips: (Unicode.Scalar) -> Bool = { $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let endsStrip: (Unicode.Scalar) -> Bool = { $0.value <= 0x20 }
        var scalars = Array(candidate.unicodeScalars.filter { !browserStrips($0) })
        while let first = scalars.first, endsStrip(first) { scalars.removeFirst() }
        while let last = scalars.last, endsStrip(last) { scalars.removeLast() }
        let path = String(String.UnicodeScalarView(scalars))
        guard path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"),
              !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return path
    }
}
