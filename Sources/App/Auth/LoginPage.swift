import Hummingbird
import JuiceBar
import ShopBasics

/// The sign-in form: `아이디`, `비밀번호`, `로그인`. It works without JavaScript.
struct LoginPage {
    let language: Language
    let next: String
    let message: String?
    /// Why sign-in is asked for, when a page sent the visitor here for a reason.
    var notice: String? = nil
    let username: String
    let request: Request
    /// Whether members may sign in with Kakao: the server has a client id.
    let kakaoLogin: Bool

    func render(status: HTTPResponse.Status = .ok) -> Response {
        let strings = CommonWords.of(language)
        return Templates.page(.login, Model(
            header: PageHeader(.signIn, title: strings.signInTitle, account: nil, language: language, request: request),
            strings: strings, message: message, notice: notice, next: next, username: username,
            kakao: kakaoLogin ? KakaoButton(language: language, next: next) : nil), status: status)
    }

    /// What `login.mustache` shows.
    struct Model: PageModel {
        let header: PageHeader
        let strings: CommonWords
        let message: String?
        let notice: String?
        let next: String
        let username: String
        let kakao: KakaoButton?
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

/// The `카카오 로그인` button (`kakao-button.mustache`) on the sign-in and sign-up pages: a GET form to
/// `/login/kakao` carrying where to go after and the page's language.
struct KakaoButton {
    let label: String
    let next: String
    let lang: String

    init(language: Language, next: String) {
        label = Words.of(language).account.kakaoLogin
        self.next = next
        lang = language.rawValue
    }
}
