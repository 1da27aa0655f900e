import Foundation
import JuiceBar
import Membership
import Storage
import VendingMachine

/// The shop's records as CSV for an accountant's spreadsheet: RFC 4180 (CRLF lines, fields with a
/// comma, quote or line break in quotes, quotes doubled), a header row, UTF-8 with a byte-order
/// mark so a spreadsheet reads Korean names right. Written a page of rows at a time, so a year of
/// orders never sits in memory. The API's `*.csv` routes and the CLI's `--csv` write the same text.
public struct CSVExport<Row: Sendable>: Sendable {
    let header: [String]
    let fields: @Sendable (Row) -> [String]
    let id: @Sendable (Row) -> Int64
    let page: @Sendable (ExportWindow) async throws -> [Row]

    /// How many rows each read takes.
    static var pageSize: Int { 500 }

    /// Hands the whole text to `write` in pieces: the mark and the header, then a page of rows at a time.
    public func write(from: Date?, until: Date?, to write: (String) async throws -> Void) async throws {
        try await write("\u{FEFF}" + CSVText.line(header))
        try await ExportWindow(from: from, until: until, limit: Self.pageSize).pages(page, id: id) { rows in
            try await write(rows.map { CSVText.line(fields($0)) }.joined())
        }
    }
}

/// RFC 4180's rules for one line.
enum CSVText {
    static func line(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\r\n"
    }

    static func quoted(_ field: String) -> String {
        let needsQuotes = field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        return needsQuotes ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}

/// The three exports: orders, the stock ledger, and the vending machine's sales. Names are in
/// `language`; moments are ISO 8601 in the shop's time zone.
public enum ShopExports {
    public static func orders(_ store: any JuiceBarStore, menu: Menu, calendar: ShopCalendar, language: Language) -> CSVExport<Order> {
        let time = moment(in: calendar)
        return CSVExport(
            header: ["id", "number", "day", "time", "juice", "name", "status", "pickup", "actor"],
            fields: { order in
                [String(order.id), String(order.number), order.day, time(order.time), order.juice.rawValue,
                 menu.juice(order.juice)?.name[language] ?? order.juice.rawValue, order.status.rawValue,
                 String(order.pickup), order.actor]
            },
            id: \.id, page: { try await store.orders(in: $0) })
    }

    public static func ledger(_ store: any JuiceBarStore, menu: Menu, calendar: ShopCalendar, language: Language) -> CSVExport<LedgerEntry> {
        let time = moment(in: calendar)
        return CSVExport(
            header: ["id", "time", "fruit", "name", "delta", "countAfter", "cause", "juice", "order", "actor"],
            fields: { line in
                [String(line.id), time(line.time), line.fruit.rawValue, menu.fruit(line.fruit)?.name[language] ?? line.fruit.rawValue,
                 String(line.delta), String(line.countAfter), line.cause.rawValue, line.juice?.rawValue ?? "",
                 line.orderID.map(String.init) ?? "", line.actor]
            },
            id: \.id, page: { try await store.ledger(in: $0) })
    }

    public static func sales(_ store: any VendingStore, calendar: ShopCalendar, language: Language) -> CSVExport<Sale> {
        let time = moment(in: calendar)
        return CSVExport(
            header: ["id", "time", "product", "name", "price", "item"],
            fields: { sale in
                [String(sale.id), time(sale.time), sale.product,
                 Catalog.products.first { $0.id == sale.product }?.name[language] ?? sale.product,
                 String(sale.price), String(sale.itemID)]
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
