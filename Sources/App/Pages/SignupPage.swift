import Hummingbird
import JuiceBar

/// The sign-up form: `아이디`, `비밀번호`, `이름`, `가입하기`. It works without JavaScript.
struct SignupPage {
    let language: Language
    let message: String?
    let username: String
    let name: String
    let request: Request

    func render(status: HTTPResponse.Status = .ok) -> Response {
        let strings = Strings.of(language)
        let error = message.map { "<p class=\"error\" role=\"alert\">\(escapeHTML($0))</p>" } ?? ""
        let body = """
            <header class="bar">
              <h1>\(escapeHTML(strings.signUpTitle))</h1>
              <nav>\(languageSwitch(request, language, strings))</nav>
            </header>
            <main class="narrow">
              <form method="post" action="/signup" class="card">
                \(error)
                <input type="hidden" name="lang" value="\(language.rawValue)">
                <label for="username">\(escapeHTML(strings.username))</label>
                <input id="username" name="username" autocomplete="username" required minlength="3" maxlength="20"
                  pattern="[a-z0-9_]{3,20}" value="\(escapeHTML(username))">
                <label for="password">\(escapeHTML(strings.password))</label>
                <input id="password" name="password" type="password" autocomplete="new-password" required minlength="8">
                <label for="name">\(escapeHTML(strings.name))</label>
                <input id="name" name="name" autocomplete="nickname" maxlength="50" value="\(escapeHTML(name))">
                <button type="submit">\(escapeHTML(strings.signUp))</button>
              </form>
              <p class="aside"><a href="/login\(language == .en ? "?lang=en" : "")">\(escapeHTML(strings.signIn))</a></p>
            </main>
            """
        var response = page(title: strings.signUpTitle, language: language, body: body)
        response.status = status
        return response
    }
}
