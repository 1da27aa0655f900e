import JuiceBar
import ShopBasics
import VendingMachine

/// Everything a person reads — page words, alerts and the API's messages — as one table per
/// language: `Words+Korean.swift` (the seed's labels) and `Words+English.swift`.
struct Words: Sendable {
    let language: Language
    let common: CommonWords
    let home: HomeWords
    let account: AccountWords
    let vending: VendingWords
    let queue: QueueWords
    let receipt: ReceiptWords
    let reports: ReportWords
    let menu: MenuWords
    let counter: CounterWords
    /// Each order status as a person reads it: `received` is `접수`.
    let statuses: [OrderStatus: String]

    /// The status names by the API's status words, as the pages' scripts look them up.
    var statusNames: [String: String] {
        Dictionary(uniqueKeysWithValues: statuses.map { ($0.key.rawValue, $0.value) })
    }
    /// What each refusal says; `{name}` marks where a message's value goes.
    let messages: [MessageKey: String]
    /// How a message names a field a person filled in (`title` is `제목`).
    let fields: [String: String]
    /// How a message names a kind of value the API expected.
    let kinds: [ValueKind: String]

    static func of(_ language: Language) -> Words {
        switch language {
        case .ko: korean
        case .en: english
        }
    }

    /// The message in this language, its values filled in: fruits, juices and products by their
    /// names (fruits and juices by id without a menu, where none can appear).
    func say(_ message: Message, menu: Menu? = nil) -> String {
        (messages[message.key] ?? message.key.rawValue).filling(message.values.mapValues { say($0, menu: menu) })
    }

    private func say(_ value: MessageValue, menu: Menu?) -> String {
        switch value {
        case .text(let text): text
        case .number(let number): Won.grouped(number)
        case .won(let amount): Won.format(amount)
        case .wonList(let amounts): amounts.map(Won.format).joined(separator: ", ")
        case .field(let field): fields[field] ?? field
        case .kind(let kind): kinds[kind] ?? kind.rawValue
        case .juice(let juice): menu?.juice(juice)?.name[language] ?? juice.rawValue
        case .optionGroup(let group): menu?.optionGroup(group)?.name[language] ?? group.rawValue
        case .option(let group, let option): menu?.optionGroup(group)?.option(option)?.name[language] ?? option.rawValue
        case .status(let status): statuses[status] ?? status.rawValue
        case .product(let product): Catalog.products.first { $0.id == product }?.name[language] ?? product
        case .shortages(let shortages):
            shortages.map { shortage in
                common.shortageLine.filling([
                    "fruit": menu?.fruit(shortage.fruit)?.name[language] ?? shortage.fruit.rawValue,
                    "needed": String(shortage.needed), "available": String(shortage.available),
                ])
            }.joined(separator: ", ")
        }
    }
}

extension String {
    /// The text with each `{name}` replaced by its value, in one pass: a value is never read
    /// for `{name}`s of its own (a member may call themself `{juice}`).
    func filling(_ values: [String: String]) -> String {
        var filled = ""
        var rest = self[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            filled += rest[..<open]
            filled += values[String(rest[rest.index(after: open)..<close])] ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return filled + rest
    }
}

/// Which message a refusal says, the same in every language. The API's `error` code is separate:
/// codes stay stable while a message may be worded anew.
enum MessageKey: String, CaseIterable, Sendable {
    // The juice bar's refusals.
    case unknownFruit, unknownJuice, notANumber, countOutOfRange, amountOutOfRange, invalidID, duplicate, emptyName
    case invalidText, emptyRecipe, outOfStock
    // Selling: carts, prices and the menu's option groups.
    case unknownOption, repeatedOption, optionsRequired, tooManyOptions, badQuantity, juiceSoldOut
    case invalidOptionGroup, priceOutOfRange, priceChanged, notEnoughCash, badPayment, alreadyPaid, orderCancelled
    // The queue's.
    case unknownOrder, cannotMove, cannotCancel, notYourOrder, unknownStatus
    // Closing the day.
    case dayAlreadyClosed, unknownReport
    // The shop's settings.
    case unknownTimeZone, ordersStillQueued
    // The shop's info on its receipts.
    case shopNameRequired, notOneLine, malformedBusinessNumber, wrongCheckDigit, badPhone
    // Requests sent again with their `Idempotency-Key`.
    case invalidIdempotencyKey, idempotencyKeyReused, requestInProgress
    // The vending machine's.
    case invalidAmount, balanceCap, insufficientBalance, soldOut, expired, unknownProduct, invalidCount
    // Posted news and events.
    case missingTitle, tooLong, invalidDate, invalidPeriod, unsupportedImage, imageTooLarge
    // Accounts and sign-in.
    case invalidUsername, passwordTooShort, passwordTooLong, nameTooLong, usernameTaken
    case unauthorized, forbidden, invalidCredentials, tooManyAttempts, passwordNotSet
    // Requests the server cannot take.
    case notFound, noSuchEvent, noSuchImage, methodNotAllowed, crossSite, notMultipart, invalidBoundary, tooLarge
    /// A state-changing request without its session's anti-CSRF token: the API's, and a page form's.
    case csrfToken, formExpired
    case requestTimeout
    case badJSON, missingField, wrongType, invalidValue, invalidForm, invalidLimit, badRequest
    // The server's own trouble; nothing was done.
    case busy, storageFull, storageLost, storageUnavailable, internalError
}

/// A message before it is put into words: its key and the values its `{name}`s take.
struct Message: Sendable {
    let key: MessageKey
    let values: [String: MessageValue]

    init(_ key: MessageKey, _ values: [String: MessageValue] = [:]) {
        self.key = key
        self.values = values
    }
}

/// A value in a message, said the way its language says it.
enum MessageValue: Sendable {
    /// Said as it is: what a person typed, an id nothing is named by.
    case text(String)
    case number(Int)
    case won(Int)
    case wonList([Int])
    /// A field a person filled in, by the id the domain uses (`title`).
    case field(String)
    case kind(ValueKind)
    case juice(JuiceID)
    /// An option group by its name (사이즈), and an option in it (라지).
    case optionGroup(OptionGroupID)
    case option(OptionGroupID, OptionID)
    case product(ProductID)
    case status(OrderStatus)
    /// Each short fruit by name, with what is needed and what is left.
    case shortages([Shortage])
}

/// A kind of value the API expected and did not get.
enum ValueKind: String, CaseIterable, Sendable {
    case wholeNumber, text, value
}

/// A page's words that are not one page's own: the header, the order and stock screens, sign-in.
struct CommonWords: Encodable, Sendable {
    let orderScreenTitle: String
    /// A juice's order button: `딸바쥬스 주문`, `Order Strawberry Banana Juice`.
    let orderButton: String
    let editStock: String
    let made: String
    let shortage: String
    let ok: String
    let yes: String
    let no: String
    let stockScreenTitle: String
    /// A fruit's −/+ buttons on the stock screen: `딸기 빼기`, `Strawberry: add one`.
    let removeLabel: String
    let addLabel: String
    let close: String
    let username: String
    let password: String
    let signIn: String
    let signOut: String
    let signInTitle: String
    let signUp: String
    let name: String
    let signUpTitle: String
    let noAccount: String
    let vending: String
    let home: String
    let kitchen: String
    let reports: String
    /// Staff's page of 메뉴 관리 (`/menu`).
    let menuManagement: String
    /// A fruit at or below its reorder level.
    let low: String
    let staffOnly: String
    let failed: String
    let otherLanguage: String
    let fruitCounts: String
    let juices: String
    let shopName: String
    let navigation: String
    let countLabel: String
    let countRange: String
    let shortageLine: String
    let staffEditsStock: String
    /// The page a form without its anti-CSRF token gets: its title, and the link back to the form's page.
    let formRefused: String
    let backToPage: String
    /// A juice on the menu but not sold now.
    let soldOut: String
    /// Staff's counter screen (`/counter`), in the header and as its title.
    let counter: String

    static func of(_ language: Language) -> CommonWords { Words.of(language).common }
}

/// Kakao login's words, and the member's own account on `/home`: username, password, Kakao link.
struct AccountWords: Sendable {
    /// The Kakao button: `카카오 로그인`, `Login with Kakao`.
    let kakaoLogin: String
    let connectKakao, disconnectKakao, kakaoConnectedLine, title, changeUsername, setPassword, noPassword: String
    /// What `/home` or `/login` says after a Kakao flow or an account change.
    let notices: [AccountNotice: String]
}

/// The outcome of a Kakao flow or an account change, as `/home?notice=` names it.
enum AccountNotice: String, CaseIterable, Sendable {
    case kakaoConnected, kakaoDisconnected, passwordSet, usernameChanged
    case onlyWayIn, linkedToAnother, alreadyLinked
    case denied, expired, otherBrowser, unavailable, refused
}

/// The queue's words: the making screen, the pickup board, and a member's order on `/home`.
struct QueueWords: Encodable, Sendable {
    let kitchenTitle, boardTitle, preparing, pickUp, startMaking, finishMaking, pickedUp, cancel: String
    /// `{number}`, `{juice}`.
    let cancelQuestion: String
    /// How a number is called: `12번`.
    let number: String
    let noOrders: String
    /// `{ahead}`, `{minutes}`.
    let waitLine: String
    /// `{number}`, `{juice}`, `{status}`.
    let yourOrder: String
    /// Said when a member's order joins the queue: `{number}`, `{juice}`.
    let orderReceived: String
    let readyBanner: String
    let notify: String
    let cancelled: String
    let recipe: String
    /// Said to a screen reader when an order arrives on the making screen.
    let newOrder: String
    /// How long ago a card's order came: `{minutes}`, `{seconds}`.
    let age: String
    /// A line's juice and how many cups of it: `{juice}`, `{quantity}` (`딸바쥬스 ×2`).
    let cups: String
}

/// A receipt (영수증, `/orders/{id}/receipt`): the shop, the order, what was sold and how it was paid.
struct ReceiptWords: Sendable {
    let title, businessNumber, address, phone, orderNumber, time: String
    /// The lines' columns.
    let item, unitPrice, quantity, amount: String
    let total, supplyValue, vat, payment, received, change, approval, refund, refundTime: String
    /// Each way of paying by name: `cash` is `현금`.
    let methods: [PaymentMethod: String]
    /// An order not paid yet, to be paid at the counter.
    let unpaid: String
    /// An order from before prices were kept, which has none.
    let unpriced: String
    let print: String
    /// Said to a member who opens another member's receipt.
    let notYours: String
}

/// The day reports' page: the closed days, their sales, and the close itself.
struct ReportWords: Encodable, Sendable {
    let title, closeDay, number, day, made, cancelled, fruitUsed, vendingSales, hash, chartTitle, noReports: String
    /// `{day}`.
    let closeQuestion: String
    /// `{number}`, `{day}`.
    let closed: String
    /// A bar's label in the chart: `{made}`, `{won}`.
    let chartBar: String
    /// A report's takings (매출 정산): its money, by payment method, by juice and by option.
    let takingsTitle, gross, refunds, net, vat, cashInDrawer, byMethod, method, cash, card, transfer: String
    let byJuice, juice, cups, amount, optionsSold, optionGroup, option: String
    /// The orders unpaid at the close, those of them picked up, and earlier orders paid since:
    /// `{count}`, `{orders}`.
    let unpaid, unpaidPickedUp, paidLate: String
}

/// 메뉴 관리 (`/menu`): the juices with their prices, option groups and 품절, a new juice, the
/// juices retired, and what the last change came to.
struct MenuWords: Sendable {
    let title, juices, recipe, price, options, save, onSale, markSoldOut, backOnSale, retire: String
    /// Asked before a juice is retired: `{juice}`.
    let retireQuestion: String
    let addTitle, id, idHint, nameKo, nameEn, recipeHint, add, retiredTitle, groupsTitle, noJuices: String
    /// How many options a group takes: `{min}`, `{max}`; `{count}` when it takes exactly that many.
    let groupChoice, groupExactly: String
    /// What `/menu?done=` says, each with `{juice}`.
    let notices: [MenuNotice: String]
}

/// What a change on `/menu` came to, as `/menu?done=` names it.
enum MenuNotice: String, CaseIterable, Sendable {
    case added, saved, soldOut, onSale, retired
}

/// The counter screen (`/counter`): a cart rung up from the menu, paid in cash or by card.
struct CounterWords: Encodable, Sendable {
    let cart, emptyCart, total, addToCart, cancel, clearCart, remove: String
    /// A radio group that may be left empty: its "none" choice.
    let noOption: String
    /// A cup's price with the options chosen: `{price}`.
    let unitPrice: String
    /// A cart line's buttons, each with `{line}` (`딸바쥬스 · 사이즈 라지`).
    let oneMore, oneFewer, removeLine: String
    /// An option on a cart line: `{group}`, `{option}`.
    let optionLine: String
    let cash, card, cashTitle, cardTitle, received, change, approval, approvalHint, exact, pay, sending: String
    /// Cash received short of the total: `{amount}`.
    let short: String
    /// After the order: `{number}`; the payment with `{received}`, `{total}`, `{approval}`.
    let orderNumber, paidCash, paidCard, approvalLine, receipt, nextOrder: String
    /// Said when a line is added or taken out: `{line}`.
    let added, removed: String
    /// A cart line the menu no longer sells as it was: `{juice}`.
    let dropped: String
    /// Said when the menu changed under a cart, which is priced anew.
    let menuChanged: String
}
