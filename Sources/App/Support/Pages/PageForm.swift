import Hummingbird
import JuiceBar
import ShopBasics

/// A form posted from a page that works without JavaScript (`/login`, `/signup`). Its hidden
/// `lang` field names the language of the page it was sent from, which the answer speaks.
protocol PageForm: Decodable {
    var lang: String? { get }
}

/// A page's form as read from its request.
enum PostedForm<Form: PageForm> {
    /// The form, and the language to answer in: the form's own, else the request's.
    case form(Form, Language)
    /// No form: the body was too large or not this form. The page is drawn again, blank, saying why.
    case refused(message: String, status: HTTPResponse.Status, language: Language)
}

extension Request {
    /// Reads the body whole as `Form`; `unreadable` says why when it is not one.
    func pageForm<Form: PageForm>(_ type: Form.Type, language: Language, unreadable: Message) async -> PostedForm<Form> {
        guard let buffer = try? await body.collect(upTo: Self.maximumJSONBody) else {
            return .refused(message: Words.of(language).say(Message(.tooLarge)), status: .contentTooLarge, language: language)
        }
        guard let form = try? URLEncodedFormDecoder().decode(Form.self, from: String(buffer: buffer)) else {
            return .refused(message: Words.of(language).say(unreadable), status: .badRequest, language: language)
        }
        return .form(form, form.lang.flatMap(Language.init(rawValue:)) ?? language)
    }
}
