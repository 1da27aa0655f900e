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
        let strings = CommonWords.of(language)
        return Templates.page("signup", Model(
            header: PageHeader(.signUp, title: strings.signUpTitle, account: nil, language: language, request: request),
            strings: strings, message: message, username: username, name: name), status: status)
    }

    /// What `signup.mustache` shows.
    struct Model: PageModel {
        let header: PageHeader
        let strings: CommonWords
        let message: String?
        let username: String
        let name: String
    }
}
