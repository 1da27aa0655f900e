import Foundation
import Hummingbird
import Storage
import JuiceBar
import Membership
import VendingMachine

/// An error as the API answers it: a status and a JSON body `{ "error": code, "message": text, … }`.
public struct APIError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    /// Extra fields for the body, already JSON-encodable (shortages, for one).
    public var details: [String: JSONValue] = [:]

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, details: [String: JSONValue] = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
    }

    static let unauthorized = APIError(.unauthorized, "unauthorized", "sign in first")
    static let forbidden = APIError(.forbidden, "forbidden", "staff only")
    static let invalidCredentials = APIError(.unauthorized, "invalid_credentials", "wrong username or password")

    /// Too much is waiting already (password checks, connections); nothing was done.
    static let busy = APIError(.serviceUnavailable, "busy", "the shop is busy; try again in a moment",
                               details: ["retryAfter": .int(1)])

    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not_found", message) }

    static func tooManyAttempts(retryAfter seconds: TimeInterval) -> APIError {
        APIError(.tooManyRequests, "too_many_attempts",
                 "too many failed sign-ins; try again in \(Int(seconds.rounded(.up))) seconds",
                 details: ["retryAfter": .int(Int(seconds.rounded(.up)))])
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
}

extension APIError {
    /// The API's answer for any error a route lets through; anything unknown is a bug and a 500.
    init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let refusal as OutOfStock:
            let shortages = refusal.shortages.map { shortage in
                JSONValue.object([
                    "fruit": .string(shortage.fruit.rawValue), "needed": .int(shortage.needed),
                    "available": .int(shortage.available),
                ])
            }
            self.init(.conflict, "out_of_stock", refusal.description,
                      details: ["juice": .string(refusal.juice.rawValue), "shortages": .array(shortages)])
        case let error as JuiceBarError:
            switch error {
            case .unknownJuice, .unknownFruit: self.init(.notFound, error.code, error.description)
            default: self.init(.unprocessableContent, error.code, error.description)
            }
        case let error as VendingError:
            if case .unknownProduct = error {
                self.init(.notFound, error.code, error.description)
            } else {
                self.init(error.isRefusal ? .conflict : .unprocessableContent, error.code, error.description)
            }
        case let error as ContentError:
            self.init(.unprocessableContent, error.code, error.description)
        case let error as AccountError:
            if case .usernameTaken = error {
                self.init(.conflict, error.code, error.description)
            } else {
                self.init(.unprocessableContent, error.code, error.description)
            }
        case let error as HTTPError:
            self.init(error.status, Self.code(for: error.status), error.body ?? error.status.reasonPhrase)
        case StorageError.busy(let reason):
            self.init(.serviceUnavailable, "busy", reason)
        case StorageError.full:
            self.init(.serviceUnavailable, "storage_full", StorageError.full.description)
        case StorageError.lost(let reason):
            self.init(.serviceUnavailable, "storage_lost", reason)
        default:
            self.init(.internalServerError, "internal", "something went wrong on our side")
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

    func response() -> Response {
        var body = details
        body["error"] = .string(code)
        body["message"] = .string(message)
        var response = Response.json(body, status: status)
        if case .int(let seconds) = details["retryAfter"] { response.headers[.retryAfter] = String(seconds) }
        return response
    }
}
