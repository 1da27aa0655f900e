import DayClose
import Foundation
import Hummingbird
import ShopBasics
import Storage
import JuiceBar
import Membership
import VendingMachine

/// An error as the API answers it: a status and a JSON body `{ "error": code, "message": text, … }`.
/// The code stays stable; the message is said in the request's language (`Words`).
public struct APIError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    var message: Message
    /// Extra fields for the body, already JSON-encodable (shortages, for one).
    public var details: [String: JSONValue] = [:]
    /// Extra header fields for the answer (`Allow`, `Retry-After`).
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ code: String, _ message: Message, details: [String: JSONValue] = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
    }

    init(_ status: HTTPResponse.Status, _ code: String, _ key: MessageKey, _ values: [String: MessageValue] = [:]) {
        self.init(status, code, Message(key, values))
    }

    static let unauthorized = APIError(.unauthorized, "unauthorized", .unauthorized)
    static let forbidden = APIError(.forbidden, "forbidden", .forbidden)
    static let invalidCredentials = APIError(.unauthorized, "invalid_credentials", .invalidCredentials)
    /// A password sign-in for a member made by a Kakao sign-in who has set no password yet.
    static let passwordNotSet = APIError(.unauthorized, "password_not_set", .passwordNotSet)

    /// Too much is waiting already (password checks, connections); nothing was done.
    static let busy = APIError(.serviceUnavailable, "busy", .busy).retrying(after: 1)

    static func notFound(_ key: MessageKey) -> APIError { APIError(.notFound, "not_found", key) }

    static func tooManyAttempts(retryAfter seconds: TimeInterval) -> APIError {
        let wholeSeconds = Int(seconds.rounded(.up))
        return APIError(.tooManyRequests, "too_many_attempts", .tooManyAttempts, ["seconds": .number(wholeSeconds)])
            .retrying(after: wholeSeconds)
    }

    /// The same error, telling the client when to try again (`Retry-After` and `retryAfter`).
    func retrying(after seconds: Int) -> APIError {
        var error = self
        error.details["retryAfter"] = .int(seconds)
        error.headers[.retryAfter] = String(seconds)
        return error
    }
}

/// A small JSON value, for error details that are not worth a type of their own.
public enum JSONValue: Encodable, Sendable, Hashable {
    case string(String)
    case int(Int)
    case array([JSONValue])
    case object([String: JSONValue])

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as `apiEncoder` writes it: an object's keys sorted.
    func write(to text: inout JSONText) {
        switch self {
        case .string(let value): text.string(value)
        case .int(let value): text.integer(value)
        case .array(let values):
            text.beginArray()
            for value in values { value.write(to: &text) }
            text.endArray()
        case .object(let members):
            text.beginObject()
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                text.key(key)
                value.write(to: &text)
            }
            text.endObject()
        }
    }
}

extension APIError {
    /// The API's answer for any error a route lets through; anything unknown is a bug and a 500.
    init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as HTTPError:
            self.init(error.status, Self.code(for: error.status), Self.key(for: error.status))
        case StorageError.busy:
            self = APIError(.serviceUnavailable, "busy", .busy).retrying(after: 1)
        case StorageError.full:
            self.init(.serviceUnavailable, "storage_full", .storageFull)
        case StorageError.lost:
            self.init(.serviceUnavailable, "storage_lost", .storageLost)
        case StorageError.unavailable, StorageError.unreachable:
            self = APIError(.serviceUnavailable, "storage_unavailable", .storageUnavailable).retrying(after: 1)
        default:
            self = Self.refusal(error) ?? APIError(.internalServerError, "internal", .internalError)
        }
    }

    /// A domain's refusal as the API answers it; nil for an error no domain refuses with.
    private static func refusal(_ error: any Error) -> APIError? {
        switch error {
        case let refusal as OutOfStock:
            let shortages = refusal.shortages.map { shortage in
                JSONValue.object([
                    "fruit": .string(shortage.fruit.rawValue), "needed": .int(shortage.needed),
                    "available": .int(shortage.available),
                ])
            }
            return APIError(.conflict, "out_of_stock",
                            Message(.outOfStock, ["juice": .juice(refusal.juice), "shortages": .shortages(refusal.shortages)]),
                            details: ["juice": .string(refusal.juice.rawValue), "shortages": .array(shortages)])
        case let error as JuiceBarError:
            switch error {
            case .unknownJuice, .unknownFruit: return APIError(.notFound, error.code, error.message)
            default: return APIError(.unprocessableContent, error.code, error.message)
            }
        case let error as SaleError:
            switch error {
            case .unknownJuice: return APIError(.notFound, error.code, error.message)
            case .soldOut(let juice):
                return APIError(.conflict, error.code, error.message, details: ["juice": .string(juice.rawValue)])
            case .priceChanged(_, let total):
                return APIError(.conflict, error.code, error.message, details: ["total": .int(total)])
            case .alreadyPaid, .orderCancelled: return APIError(.conflict, error.code, error.message)
            default: return APIError(.unprocessableContent, error.code, error.message)
            }
        case let error as VendingError:
            if case .unknownProduct = error {
                return APIError(.notFound, error.code, error.message)
            } else {
                return APIError(error.isRefusal ? .conflict : .unprocessableContent, error.code, error.message)
            }
        case let error as OrderError:
            switch error {
            case .unknownOrder: return APIError(.notFound, error.code, error.message)
            case .unknownStatus: return APIError(.unprocessableContent, error.code, error.message)
            case .notYours: return APIError(.forbidden, error.code, error.message)
            case .cannotMove(let status, _), .cannotCancel(let status):
                return APIError(.conflict, error.code, error.message, details: ["status": .string(status.rawValue)])
            }
        case let error as ContentError:
            return APIError(.unprocessableContent, error.code, error.message)
        case let error as DayCloseError:
            switch error {
            case .alreadyClosed(let day):
                return APIError(.conflict, "day_already_closed", error.message, details: ["day": .string(day)])
            case .unknownReport: return APIError(.notFound, "not_found", error.message)
            }
        case let error as ShopInfoError:
            return APIError(.unprocessableContent, error.code, error.message)
        case let error as ShopSettingError:
            switch error {
            case .unknownTimeZone: return APIError(.unprocessableContent, "unknown_time_zone", error.message)
            case .ordersQueued: return APIError(.conflict, "orders_queued", error.message)
            }
        case let error as AccountError:
            if case .usernameTaken = error {
                return APIError(.conflict, error.code, error.message)
            } else {
                return APIError(.unprocessableContent, error.code, error.message)
            }
        default:
            return nil
        }
    }

    private static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .contentTooLarge: "too_large"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        default: status.code < 500 ? "bad_request" : "internal"
        }
    }

    private static func key(for status: HTTPResponse.Status) -> MessageKey {
        switch status {
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .contentTooLarge: .tooLarge
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        default: status.code < 500 ? .badRequest : .internalError
        }
    }

    /// The answer's JSON: the details, the code and the message said in `language`.
    func body(in language: Language, menu: Menu) -> [String: JSONValue] {
        var body = details
        body["error"] = .string(code)
        body["message"] = .string(Words.of(language).say(message, menu: menu))
        return body
    }

    /// `body` as `apiEncoder` would write it, written directly (see `JSONText`): a refused order
    /// in a rush, once the fruit has run out, is answered as often as an order made.
    func json(in language: Language, menu: Menu) -> [UInt8] {
        var text = JSONText()
        JSONValue.object(body(in: language, menu: menu)).write(to: &text)
        return text.bytes
    }

    func response(in language: Language, menu: Menu) -> Response {
        var response = Response(StoredAnswer.json(json(in: language, menu: menu), status: status))
        response.headers.append(contentsOf: headers)
        return response
    }
}

/// What a refusal says to a person in `language`, for the CLI, which has no request to follow;
/// fruits and juices by name when a menu is given.
public func say(_ refusal: any Error, in language: Language, menu: Menu? = nil) -> String {
    Words.of(language).say(APIError(refusal).message, menu: menu)
}

// What each domain refusal says, by key and values; the words are each language's.

extension JuiceBarError {
    var message: Message {
        switch self {
        case .unknownFruit(let id): Message(.unknownFruit, ["id": .text(id)])
        case .unknownJuice(let id): Message(.unknownJuice, ["id": .text(id)])
        case .notANumber(let text): Message(.notANumber, ["text": .text(text)])
        case .countOutOfRange(let count):
            Message(.countOutOfRange, ["count": .number(count), "min": .number(StockLimits.count.lowerBound),
                                       "max": .number(StockLimits.count.upperBound)])
        case .amountOutOfRange(let amount):
            Message(.amountOutOfRange, ["amount": .number(amount), "min": .number(StockLimits.recipeAmount.lowerBound),
                                        "max": .number(StockLimits.recipeAmount.upperBound)])
        case .invalidIdentifier(let id): Message(.invalidID, ["id": .text(id)])
        case .duplicate(let id): Message(.duplicate, ["id": .text(id)])
        case .emptyName: Message(.emptyName)
        case .invalidText(let field): Message(.invalidText, ["field": .field(field)])
        case .emptyRecipe: Message(.emptyRecipe)
        }
    }
}

extension SaleError {
    var message: Message {
        switch self {
        case .unknownJuice(let id): Message(.unknownJuice, ["id": .text(id.rawValue)])
        case .unknownOption(let group, let option):
            Message(.unknownOption, ["group": .optionGroup(group), "option": .text(option?.rawValue ?? group.rawValue)])
        case .repeatedOption(let group, let option):
            Message(.repeatedOption, ["group": .optionGroup(group), "option": .option(group, option)])
        case .optionsRequired(let group, let min): Message(.optionsRequired, ["group": .optionGroup(group), "min": .number(min)])
        case .tooManyOptions(let group, let max): Message(.tooManyOptions, ["group": .optionGroup(group), "max": .number(max)])
        case .badQuantity:
            Message(.badQuantity, ["min": .number(Prices.quantity.lowerBound), "max": .number(Prices.quantity.upperBound),
                                   "lines": .number(Prices.lines.upperBound)])
        case .soldOut(let juice): Message(.juiceSoldOut, ["juice": .juice(juice)])
        case .invalidGroup(let id): Message(.invalidOptionGroup, ["id": .text(id.rawValue)])
        case .priceOutOfRange(let price):
            Message(.priceOutOfRange, ["price": .number(price), "min": .won(Prices.range.lowerBound),
                                       "max": .won(Prices.range.upperBound)])
        case .priceChanged(let expected, let total): Message(.priceChanged, ["expected": .won(expected), "total": .won(total)])
        case .notEnoughCash(let total, let received): Message(.notEnoughCash, ["total": .won(total), "received": .won(received)])
        case .badPayment: Message(.badPayment)
        case .alreadyPaid(let id): Message(.alreadyPaid, ["id": .text(String(id))])
        case .orderCancelled(let id): Message(.orderCancelled, ["id": .text(String(id))])
        }
    }
}

extension OrderError {
    var message: Message {
        switch self {
        case .unknownOrder(let id): Message(.unknownOrder, ["id": .text(String(id))])
        case .cannotMove(let from, let to): Message(.cannotMove, ["status": .status(from), "to": .status(to)])
        case .cannotCancel(let status): Message(.cannotCancel, ["status": .status(status)])
        case .notYours: Message(.notYourOrder)
        case .unknownStatus(let text): Message(.unknownStatus, ["text": .text(text)])
        }
    }
}

extension VendingError {
    var message: Message {
        switch self {
        case .invalidDenomination(let amount):
            Message(.invalidAmount, ["amount": .won(amount), "accepted": .wonList(Denomination.all.reversed())])
        case .balanceCapExceeded(let balance, let amount):
            Message(.balanceCap, ["balance": .won(balance), "amount": .won(amount), "cap": .won(Denomination.balanceCap)])
        case .insufficientBalance(let price, let balance):
            Message(.insufficientBalance, ["price": .won(price), "balance": .won(balance)])
        case .soldOut(let product): Message(.soldOut, ["product": .product(product)])
        case .expired(let product): Message(.expired, ["product": .product(product)])
        case .unknownProduct(let id): Message(.unknownProduct, ["id": .text(id)])
        case .invalidCount(let count): Message(.invalidCount, ["count": .number(count), "max": .number(Restock.maximumCount)])
        }
    }
}

extension ContentError {
    var message: Message {
        switch self {
        case .missingTitle: Message(.missingTitle)
        case .invalidText(let field): Message(.invalidText, ["field": .field(field)])
        case .tooLong(let field, let limit): Message(.tooLong, ["field": .field(field), "limit": .number(limit)])
        case .invalidDay(let text): Message(.invalidDate, ["text": .text(text)])
        case .endsBeforeItStarts: Message(.invalidPeriod)
        case .unsupportedImage: Message(.unsupportedImage)
        case .imageTooLarge(let bytes): Message(.imageTooLarge, ["bytes": .number(bytes), "max": .number(ImageKind.maximumBytes)])
        }
    }
}

extension AccountError {
    var message: Message {
        switch self {
        case .invalidUsername(let username): Message(.invalidUsername, ["username": .text(username)])
        case .passwordTooShort: Message(.passwordTooShort, ["min": .number(AccountRules.minimumPasswordLength)])
        case .passwordTooLong: Message(.passwordTooLong, ["max": .number(AccountRules.maximumPasswordBytes)])
        case .nameTooLong: Message(.nameTooLong, ["max": .number(AccountRules.maximumNameLength)])
        case .invalidText(let field): Message(.invalidText, ["field": .field(field)])
        case .usernameTaken(let username): Message(.usernameTaken, ["username": .text(username)])
        }
    }
}

extension ShopSettingError {
    var message: Message {
        switch self {
        case .unknownTimeZone(let name): Message(.unknownTimeZone, ["zone": .text(name)])
        case .ordersQueued(let day, let count): Message(.ordersStillQueued, ["day": .text(day), "count": .number(count)])
        }
    }
}

extension DayCloseError {
    var message: Message {
        switch self {
        case .alreadyClosed(let day): Message(.dayAlreadyClosed, ["day": .text(day)])
        case .unknownReport(let id): Message(.unknownReport, ["id": .text(id)])
        }
    }
}
