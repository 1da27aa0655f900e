import Foundation
import JuiceBar
import Membership
import ShopBasics
import Storage
import VendingMachine

/// The shop's records as CSV for an accountant's spreadsheet: RFC 4180 (CRLF lines, fields with a
/// comma, quote or line break in quotes, quotes doubled), a header row, UTF-8 with a byte-order
/// mark so a spreadsheet reads Korean names right. Text cells that a spreadsheet would run as a
/// formula are neutralised (see `CSVCell`); numbers are written as they are. Written a page of rows at a time, so a year of
/// orders never sits in memory. The API's `*.csv` routes and the CLI's `--csv` write the same text.
public struct CSVExport<Row: Sendable>: Sendable {
    let header: [String]
    let fields: @Sendable (Row) -> [CSVCell]
    let id: @Sendable (Row) -> Int64
    let page: @Sendable (ExportWindow) async throws -> [Row]

    /// How many rows each read takes.
    static var pageSize: Int { 500 }

    /// Hands the whole text to `write` in pieces: the mark and the header, then a page of rows at a time.
    public func write(from: Date?, until: Date?, to write: (String) async throws -> Void) async throws {
        try await write("\u{FEFF}" + CSVText.line(header.map(CSVCell.text)))
        try await ExportWindow(from: from, until: until, limit: Self.pageSize).pages(page, id: id) { rows in
            try await write(rows.map { CSVText.line(fields($0)) }.joined())
        }
    }
}

/// One cell of an export, by its column's kind rather than by its text: a ledger `delta` of `-2` is a
/// number and stays `-2`, while a fruit's name `-2` or `=HYPERLINK(…)` is text.
struct CSVCell: Sendable, Equatable {
    let value: String
    let isText: Bool

    static func text(_ value: String) -> CSVCell { CSVCell(value: value, isText: true) }
    static func number(_ value: some BinaryInteger) -> CSVCell { CSVCell(value: String(value), isText: false) }
    /// A number that may be missing (an entry without an order): an empty cell then.
    static func number(_ value: (some BinaryInteger)?) -> CSVCell { value.map { number($0) } ?? text("") }

    /// What a spreadsheet may read as a formula when a text cell starts with it (OWASP's CSV injection list).
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// The cell's text as written: text that starts like a formula gets a leading `'`, which makes a
    /// spreadsheet show it as text instead of running it.
    var neutralised: String {
        guard isText, let first = value.unicodeScalars.first, Self.formulaStarts.contains(first) else { return value }
        return "'" + value
    }
}

/// RFC 4180's rules for one line.
enum CSVText {
    static func line(_ cells: [CSVCell]) -> String {
        cells.map { quoted($0.neutralised) }.joined(separator: ",") + "\r\n"
    }

    static func quoted(_ field: String) -> String {
        let needsQuotes = field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        return needsQuotes ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}

/// The three exports: orders, the stock ledger, and the vending machine's sales. Names are in
/// `language`; moments are ISO 8601 in the shop's time zone.
public enum ShopExports {
    /// One row an order. What it sold comes from the order itself (names and prices as sold), so a
    /// later menu change leaves the export as it was; an order from before carts has no lines and
    /// no price, its total and VAT left empty, and is named from the menu.
    public static func orders(_ store: any JuiceBarStore, menu: Menu, calendar: ShopCalendar, language: Language) -> CSVExport<Order> {
        let time = moment(in: calendar)
        return CSVExport(
            header: ["id", "number", "day", "time", "juice", "name", "status", "pickup", "actor", "lines", "total", "vat",
                     "payment", "refund"],
            fields: { order in
                let sold = !order.lines.isEmpty
                let name = order.lines.first?.name[language] ?? menu.juice(order.juice)?.name[language] ?? order.juice.rawValue
                return [.number(order.id), .number(order.number), .text(order.day), .text(time(order.time)),
                        .text(order.juice.rawValue), .text(name), .text(order.status.rawValue), .text(String(order.pickup)),
                        .text(order.actor), .text(linesText(order.lines, menu: menu, in: language)),
                        .number(sold ? order.total : nil), .number(sold ? order.vat : nil),
                        .text(order.payment?.method.rawValue ?? ""), .number(order.refund?.amount)]
            },
            id: \.id, page: { try await store.orders(in: $0) })
    }

    /// An order's lines in one cell, every option as sold and plain numbers a spreadsheet can pick
    /// out: `딸바쥬스 (사이즈: 라지 +1000, 얼음: 적게, 당도: 기본) 7000 × 2 = 14000; 망키쥬스 (…) 6500 × 1 = 6500`.
    /// An option is named with its group as the menu names it (an option alone may not say what
    /// it is: `Regular`), or alone once the menu has no such group.
    static func linesText(_ lines: [SoldLine], menu: Menu, in language: Language) -> String {
        lines.map { line in
            let options = line.options.map { option in
                let name = menu.optionGroup(option.group).map { "\($0.name[language]): \(option.name[language])" }
                    ?? option.name[language]
                return option.price > 0 ? "\(name) +\(option.price)" : name
            }
            let chosen = options.isEmpty ? "" : " (" + options.joined(separator: ", ") + ")"
            return "\(line.name[language])\(chosen) \(line.unitPrice) × \(line.quantity) = \(line.amount)"
        }.joined(separator: "; ")
    }

    public static func ledger(_ store: any JuiceBarStore, menu: Menu, calendar: ShopCalendar, language: Language) -> CSVExport<LedgerEntry> {
        let time = moment(in: calendar)
        return CSVExport(
            header: ["id", "time", "fruit", "name", "delta", "countAfter", "cause", "juice", "order", "actor"],
            fields: { line in
                [.number(line.id), .text(time(line.time)), .text(line.fruit.rawValue),
                 .text(menu.fruit(line.fruit)?.name[language] ?? line.fruit.rawValue),
                 .number(line.delta), .number(line.countAfter), .text(line.cause.rawValue), .text(line.juice?.rawValue ?? ""),
                 .number(line.orderID), .text(line.actor)]
            },
            id: \.id, page: { try await store.ledger(in: $0) })
    }

    public static func sales(_ store: any VendingStore, calendar: ShopCalendar, language: Language) -> CSVExport<Sale> {
        let time = moment(in: calendar)
        return CSVExport(
            header: ["id", "time", "product", "name", "price", "item"],
            fields: { sale in
                [.number(sale.id), .text(time(sale.time)), .text(sale.product),
                 .text(Catalog.products.first { $0.id == sale.product }?.name[language] ?? sale.product),
                 .number(sale.price), .number(sale.itemID)]
            },
            id: \.id, page: { try await store.sales(in: $0) })
    }

    /// The period `from`…`to` (whole shop days, both included; either may be left out) as moments:
    /// from the first day's midnight to the midnight after the last. Refuses a day that is not
    /// `YYYY-MM-DD` and a period that ends before it starts.
    public static func period(from: String?, to: String?, calendar: ShopCalendar) throws -> (from: Date?, until: Date?) {
        func day(_ text: String?) throws -> Date? {
            guard let text else { return nil }
            guard let day = calendar.day(text) else { throw ContentError.invalidDay(text) }
            return day
        }
        let start = try day(from)
        let until = try day(to).map(calendar.startOfNextDay(after:))
        if let start, let until, until <= start { throw ContentError.endsBeforeItStarts }
        return (start, until)
    }

    private static func moment(in calendar: ShopCalendar) -> @Sendable (Date) -> String {
        let style = Date.ISO8601FormatStyle(timeZone: calendar.calendar.timeZone)
        return { $0.formatted(style) }
    }
}
