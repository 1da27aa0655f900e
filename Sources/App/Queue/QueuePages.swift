import Foundation
import Hummingbird
import JuiceBar
import Membership
import ShopBasics

/// The queue's pages: the making screen staff work through (`/kitchen`) and the pickup board by
/// the counter (`/board`). Both draw the queue from the live `queue` event; the page carries the
/// queue as it was when served, so it shows at once.
struct QueuePages {
    let juiceBar: JuiceBarService

    /// Past this age a card on the making screen turns the warning colour.
    static let lateAfterSeconds = 300

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.get("board", use: board)
        pages.group().add(middleware: SignInRequired.staffPages)
            .get("kitchen", use: kitchen)
    }

    @Sendable func kitchen(_ request: Request, context: ShopRequestContext) async throws -> Response {
        try await page(.kitchen, .kitchen, account: try context.requireStaff(), language: context.language, request: request)
    }

    @Sendable func board(_ request: Request, context: ShopRequestContext) async throws -> Response {
        try await page(.board, .board, account: context.account, language: context.language, request: request)
    }

    private func page(
        _ template: Template, _ kind: PageHeader.Page, account: Account?, language: Language, request: Request
    ) async throws -> Response {
        let words = Words.of(language)
        let menu = juiceBar.menu
        let data = PageData(
            words: words.queue, common: words.common, language: language, optionLine: words.counter.optionLine,
            statuses: words.statusNames,
            juiceNames: menu.juiceNames(in: language),
            fruits: Dictionary(uniqueKeysWithValues: menu.fruits.map { ($0.id.rawValue, "\($0.emoji) \($0.name[language])") }),
            optionGroups: Dictionary(uniqueKeysWithValues: menu.optionGroups.map { ($0.id.rawValue, GroupLabel($0, in: language)) }),
            recipes: Dictionary(uniqueKeysWithValues: menu.juices.map { ($0.id.rawValue, menu.recipeLine(of: $0, in: language)) }),
            queue: try await juiceBar.readQueue().map { QueueEntry($0, now: Date()) },
            lateAfterSeconds: Self.lateAfterSeconds)
        let title = kind == .kitchen ? words.queue.kitchenTitle : words.queue.boardTitle
        return Templates.page(template, Model(
            header: PageHeader(kind, title: title, account: account, language: language, request: request),
            words: words.queue, common: words.common, pageData: scriptJSON(data)))
    }

    /// What the pages' scripts need: words, names, each juice's recipe as a line (for an order from
    /// before carts; a line says what its cups take), and the queue.
    struct PageData: Encodable {
        let words: QueueWords
        let common: CommonWords
        let language: Language
        /// An option on a card's line: `{group}`, `{option}`, as the counter names it.
        let optionLine: String
        let statuses: [String: String]
        let juiceNames: [String: String]
        /// Each fruit as a recipe names it: `🍓 딸기`.
        let fruits: [String: String]
        let optionGroups: [String: GroupLabel]
        let recipes: [String: String]
        let queue: [QueueEntry]
        let lateAfterSeconds: Int
    }

    /// An option group as a card reads it: its name, and the options a cup gets unless told
    /// otherwise, which the card leaves out (the making screen shows what differs from a plain cup).
    struct GroupLabel: Encodable {
        let name: String
        let defaults: [OptionID]

        init(_ group: MenuOptionGroup, in language: Language) {
            name = group.name[language]
            defaults = group.defaults
        }
    }

    struct Model: PageModel {
        let header: PageHeader
        let words: QueueWords
        let common: CommonWords
        let pageData: String
    }
}
