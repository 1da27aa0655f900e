import Hummingbird
import JuiceBar

/// Every word a page shows, in Korean (the seed's labels) and English.
struct Strings: Encodable {
    let orderScreenTitle: String
    let orderSuffix: String
    let editStock: String
    let made: String
    let shortage: String
    let ok: String
    let yes: String
    let no: String
    let stockScreenTitle: String
    let remove: String
    let add: String
    let close: String
    let username: String
    let password: String
    let signIn: String
    let signOut: String
    let signInTitle: String
    let wrongCredentials: String
    let tooManyAttempts: String
    let signUp: String
    let name: String
    let signUpTitle: String
    let noAccount: String
    let vending: String
    let home: String
    let staffOnly: String
    let failed: String
    let tooLarge: String
    let busy: String
    let otherLanguage: String
    let fruitCounts: String
    let juices: String
    let shopName: String
    let navigation: String
    let countLabel: String
    let countRange: String
    let shortageLine: String
    let staffEditsStock: String

    static let korean = Strings(
        orderScreenTitle: "쥬스 주문", orderSuffix: "주문", editStock: "재고수정",
        made: "{juice} 나왔습니다! 맛있게 드세요!", shortage: "재료가 모자라요. 재고를 수정할까요?",
        ok: "확인", yes: "예", no: "아니오", stockScreenTitle: "재고 수정", remove: "빼기", add: "더하기", close: "닫기",
        username: "아이디", password: "비밀번호", signIn: "로그인", signOut: "로그아웃", signInTitle: "로그인",
        wrongCredentials: "아이디 또는 비밀번호가 맞지 않아요.",
        tooManyAttempts: "로그인 시도가 너무 많아요. 잠시 후 다시 시도해 주세요.", signUp: "가입하기", name: "이름",
        signUpTitle: "회원가입", noAccount: "계정이 없으신가요?", vending: "자판기", home: "홈", staffOnly: "직원만 재고를 수정할 수 있어요.",
        failed: "요청을 처리하지 못했어요. 다시 시도해 주세요.", tooLarge: "입력한 내용이 너무 길어요.",
        busy: "지금 요청이 많아요. 잠시 후 다시 시도해 주세요.", otherLanguage: "English",
        fruitCounts: "과일 재고", juices: "쥬스 메뉴", shopName: "쥬스메이커", navigation: "메뉴",
        countLabel: "{fruit} 수량", countRange: "0부터 {max}까지의 수를 입력해 주세요.",
        shortageLine: "{fruit} {needed}개 필요 · 지금 {available}개",
        staffEditsStock: "재고는 직원이 수정해요. 직원 계정으로 로그인하면 재고 수정 화면으로 돌아가요.")

    static let english = Strings(
        orderScreenTitle: "Juice Order", orderSuffix: "Order", editStock: "Edit Stock",
        made: "{juice} is ready! Enjoy!", shortage: "Not enough fruit. Edit the stock?",
        ok: "OK", yes: "Yes", no: "No", stockScreenTitle: "Edit Stock", remove: "remove one", add: "add one", close: "Close",
        username: "Username", password: "Password", signIn: "Sign in", signOut: "Sign out", signInTitle: "Sign in",
        wrongCredentials: "Wrong username or password.",
        tooManyAttempts: "Too many attempts. Please try again later.", signUp: "Sign up", name: "Name",
        signUpTitle: "Sign up", noAccount: "No account yet?", vending: "Vending machine", home: "Home", staffOnly: "Only staff can edit the stock.",
        failed: "Something went wrong. Please try again.", tooLarge: "What you sent is too long.",
        busy: "The shop is busy right now. Please try again in a moment.", otherLanguage: "한국어",
        fruitCounts: "Fruit stock", juices: "Juices", shopName: "JuiceMaker", navigation: "Pages",
        countLabel: "{fruit}: count", countRange: "Enter a whole number from 0 to {max}.",
        shortageLine: "{fruit}: {needed} needed · {available} left",
        staffEditsStock: "Staff edit the stock. Sign in with a staff account to come back to the stock screen.")

    static func of(_ language: Language) -> Strings {
        switch language {
        case .ko: korean
        case .en: english
        }
    }

    /// `딸바쥬스 주문` in Korean, `Order Strawberry Banana Juice` in English.
    func orderButton(_ juiceName: String, _ language: Language) -> String {
        language == .ko ? "\(juiceName) \(orderSuffix)" : "\(orderSuffix) \(juiceName)"
    }

    /// `딸기 더하기` in Korean, `Strawberry: add one` in English.
    func stepLabel(_ fruitName: String, _ action: String, _ language: Language) -> String {
        language == .ko ? "\(fruitName) \(action)" : "\(fruitName): \(action)"
    }
}

extension Language {
    /// `?lang=` first, then the language chosen before (its cookie), then the browser's
    /// `Accept-Language`, else Korean.
    static func preferred(by request: Request) -> Language {
        if let chosen = chosen(by: request) { return chosen }
        if let remembered = request.cookies[cookieName].flatMap({ Language(rawValue: $0.value) }) { return remembered }
        guard let header = request.headers[.acceptLanguage] else { return .ko }
        let ranked = header.split(separator: ",").compactMap { part -> (Language, Double)? in
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = fields.first?.lowercased(),
                  let language = Language(rawValue: String(tag.prefix(2))) else { return nil }
            let quality = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (language, quality)
        }
        return ranked.max { $0.1 < $1.1 }?.0 ?? .ko
    }

    /// The language asked for with `?lang=`, if any.
    static func chosen(by request: Request) -> Language? {
        request.uri.queryParameters["lang"].flatMap { Language(rawValue: String($0)) }
    }

    static let cookieName = "juicemaker_lang"

    /// Remembers a language chosen with `?lang=` for a year, so every page after follows it.
    var cookie: Cookie {
        Cookie(name: Self.cookieName, value: rawValue, maxAge: 365 * 86_400, path: "/", sameSite: .lax)
    }
}

/// Sets the language cookie on the answer to a request that chose a language with `?lang=`.
struct LanguageMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if let chosen = Language.chosen(by: request) { response.setCookie(chosen.cookie) }
        return response
    }
}
