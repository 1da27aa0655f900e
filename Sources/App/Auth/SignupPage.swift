import Hummingbird
import JuiceBar
import ShopBasics

/// The sign-up form: `아이디`, `비밀번호`, `이름`, `가입하기`. It works without JavaScript.
struct SignupPage {
    let language: Language
    let message: String?
    let username: String
    let name: String
    let request: Request
    /// Whether members may sign up with Kakao instead: the server has a client id.
    let kakaoLogin: Bool

    func render(status: HTTPResponse.Status = .ok) -> Response {
        let strings = CommonWords.of(language)
        return Templates.page(.signup, Model(
            header: PageHeader(.signUp, title: strings.signUpTitle, account: nil, language: language, request: request),
            strings: strings, message: message, username: username, name: name,
            kakao: kakaoLogin ? KakaoButton(language: language, next: "") : nil), status: status)
    }

    /// What `signup.mustache` shows.
    struct Model: PageModel {
        let header: PageHeader
        let strings: CommonWords
        let message: String?
        let username: String
        let name: String
        let kakao: KakaoButton?
    }
}
