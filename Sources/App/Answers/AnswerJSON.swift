import Foundation
import JuiceBar
import ShopBasics

/// An answer as the API writes it (`apiEncoder`), for the CLI's `--json` to print the same text.
public func answerJSON(_ answer: some Encodable) throws -> String {
    String(decoding: try apiEncoder.encode(answer), as: UTF8.self)
}

/// A refusal as the API answers it, `{error, message, …details}`, its message said in `language`.
public func refusalJSON(_ refusal: any Error, in language: Language, menu: Menu) -> String {
    String(decoding: APIError(refusal).json(in: language, menu: menu), as: UTF8.self)
}
