import Hummingbird
import ShopBasics
import Storage

/// The shop's info as its receipts print it: anyone reads it (`GET /api/shop`), staff change any
/// of its fields (`PATCH /api/shop`; the rest stay, an empty business number, address or phone
/// clears it).
struct ShopAPI {
    let settings: any ShopSettingStore

    func addRoutes(to api: RouterGroup<ShopRequestContext>) {
        api.get("shop", use: info)
        api.group("shop").add(middleware: SignInRequired.staffAPI)
            .patch(use: editInfo)
    }

    @Sendable func info(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(try await settings.shopInfo())
    }

    @Sendable func editInfo(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let edit = try await request.decodeJSON(ShopInfoEdit.self)
        return Response.json(try await settings.editShopInfo(edit))
    }
}

extension ShopInfoError {
    var message: Message {
        switch self {
        case .nameRequired: Message(.shopNameRequired)
        case .notOneLine(let field): Message(.notOneLine, ["field": .field(field)])
        case .tooLong(let field, let limit): Message(.tooLong, ["field": .field(field), "limit": .number(limit)])
        case .malformedBusinessNumber(let text): Message(.malformedBusinessNumber, ["text": .text(text)])
        case .wrongCheckDigit(let text): Message(.wrongCheckDigit, ["text": .text(text)])
        case .badPhone(let text):
            Message(.badPhone, ["text": .text(text), "min": .number(ShopInfo.phoneDigits.lowerBound),
                                "max": .number(ShopInfo.phoneDigits.upperBound)])
        }
    }
}
