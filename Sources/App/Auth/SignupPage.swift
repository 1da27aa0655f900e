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
        return Templates.page("signup", Model(
            title: strings.signUpTitle, lang: language.rawValue,
            header: PageHeader(.signUp, title: strings.signUpTitle, account: nil, language: language, request: request),
            strings: strings, message: message, username: username, name: name,
            signInHref: "/login" + (language == .en ? "?lang=en" : "")), status: status)
    }

    /// What `signup.mustache` shows.
    struct Model: PageModel {
        let title: String
        let lang: String
        let header: PageHeader
        let strings: Strings
        let message: String?
        let username: String
        let name: String
        let signInHref: String
    }
}
