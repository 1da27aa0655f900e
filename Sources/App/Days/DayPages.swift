import DayClose
import Foundation
import Hummingbird
import JuiceBar
import Membership
import ShopBasics
import Storage
import VendingMachine

/// `/reports`, for staff: the closed days newest first, a chart of the last days' sales, and the
/// button that closes the day under way.
struct DayPages {
    let days: ShopDays

    /// How many of the newest days the chart shows.
    static let chartDays = 14
    /// How many of the newest days' takings the page spells out (the newest open).
    static let takingsDays = 7

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.group().add(middleware: SignInRequired.staffPages)
            .get("reports", use: reports)
    }

    @Sendable func reports(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let account = try context.requireStaff()
        let words = Words.of(context.language)
        let reports = try await days.reports()
        let today = days.today
        let menu = try await days.juiceBar.menu()
        let newestTakings = reports.reversed().prefix(Self.takingsDays).compactMap { sealed in
            sealed.report.takings.map {
                TakingsView($0, of: sealed.report, menu: menu, words: words.reports, language: context.language,
                            isNewest: sealed.report.number == reports.last?.report.number)
            }
        }
        return Templates.page(.reports, Model(
            header: PageHeader(.reports, title: words.reports.title, account: account, language: context.language, request: request),
            words: words.reports, common: words.common,
            rows: reports.reversed().map(Row.init), hasReports: !reports.isEmpty,
            chart: DayChart(reports.suffix(Self.chartDays).map(\.report), words: words.reports),
            takings: newestTakings,
            today: today,
            pageData: scriptJSON(PageData(words: words.reports, common: words.common, today: today))))
    }

    struct Model: PageModel {
        let header: PageHeader
        let words: ReportWords
        let common: CommonWords
        let rows: [Row]
        let hasReports: Bool
        let chart: DayChart
        let takings: [TakingsView]
        let today: String
        let pageData: String
    }

    /// One closed day in the table.
    struct Row {
        let number: Int
        let day: String
        let made: Int
        let cancelled: Int
        let fruitUsed: Int
        let won: String
        /// The counter's net takings; a dash for a report closed before the shop sold by price.
        let net: String
        let hash: String
        let shortHash: String

        init(_ sealed: SealedReport) {
            let report = sealed.report
            number = report.number
            day = report.day
            made = report.totals.made
            cancelled = report.totals.cancelled
            fruitUsed = report.totals.fruitUsed
            won = Won.format(report.totals.won)
            net = report.takings.map { Won.format($0.net) } ?? "—"
            hash = sealed.hash
            shortHash = String(sealed.hash.prefix(12))
        }
    }

    /// What the page's script needs: its words, and the day the button closes.
    struct PageData: Encodable {
        let words: ReportWords
        let common: CommonWords
        let today: String
    }
}

/// One report's takings as the page spells them out: the sums, then tables by payment method, by
/// juice and by option, named from the menu as it stands (a juice retired keeps its name there).
struct TakingsView {
    struct Sum {
        let label: String
        let won: String
    }

    struct MethodRow {
        let method: String
        let gross, refunds, net: String
    }

    struct JuiceRow {
        let juice: String
        let cups: Int
        let amount: String
    }

    struct OptionRow {
        let group: String
        let option: String
        let cups: Int
    }

    let number: Int
    let day: String
    let isNewest: Bool
    let sums: [Sum]
    let methods: [MethodRow]
    let juices: [JuiceRow]
    let hasJuices: Bool
    let options: [OptionRow]
    let hasOptions: Bool
    /// What became of the orders unpaid at a close; each absent when there are none.
    let unpaidPickedUp: String?
    let unpaid: String?
    let paidLate: String?

    init(_ takings: DayTakings, of report: ZReport, menu: Menu, words: ReportWords, language: Language, isNewest: Bool) {
        number = report.number
        day = report.day
        self.isNewest = isNewest
        sums = [
            Sum(label: words.gross, won: Won.format(takings.gross)), Sum(label: words.refunds, won: Won.format(takings.refunds)),
            Sum(label: words.net, won: Won.format(takings.net)), Sum(label: words.vat, won: Won.format(takings.vat)),
            Sum(label: words.cashInDrawer, won: Won.format(takings.cashInDrawer)),
        ]
        let methodNames: [PaymentMethod: String] = [.cash: words.cash, .card: words.card, .transfer: words.transfer]
        methods = PaymentMethod.allCases.map { method in
            let tally = takings.methods[method.rawValue] ?? MethodTakings()
            return MethodRow(method: methodNames[method] ?? method.rawValue, gross: Won.format(tally.gross),
                             refunds: Won.format(tally.refunds), net: Won.format(tally.net))
        }
        juices = Self.inMenuOrder(takings.juices.keys, menu.juices.map(\.id.rawValue)).map { id in
            let sales = takings.juices[id] ?? JuiceSales()
            return JuiceRow(juice: menu.juice(JuiceID(id))?.name[language] ?? id, cups: sales.cups, amount: Won.format(sales.amount))
        }
        hasJuices = !juices.isEmpty
        options = Self.inMenuOrder(takings.options.keys, menu.optionGroups.map(\.id.rawValue)).flatMap { groupID in
            let group = menu.optionGroup(OptionGroupID(groupID))
            let counts = takings.options[groupID] ?? [:]
            return Self.inMenuOrder(counts.keys, group?.options.map(\.id.rawValue) ?? []).map { optionID in
                OptionRow(group: group?.name[language] ?? groupID,
                          option: group?.options.first { $0.id.rawValue == optionID }?.name[language] ?? optionID,
                          cups: counts[optionID] ?? 0)
            }
        }
        hasOptions = !options.isEmpty
        func warning(_ text: String, _ orders: [Int64]) -> String? {
            orders.isEmpty ? nil
                : text.filling(["count": String(orders.count), "orders": orders.map { "#\($0)" }.joined(separator: ", ")])
        }
        unpaidPickedUp = warning(words.unpaidPickedUp, takings.unpaidPickedUp)
        unpaid = warning(words.unpaid, takings.unpaid)
        paidLate = warning(words.paidLate, takings.paidLate)
    }

    /// `ids` in the order the menu lists them, then any the menu no longer has, by id.
    private static func inMenuOrder(_ ids: some Collection<String>, _ menuOrder: [String]) -> [String] {
        let place = Dictionary(menuOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.sorted { (place[$0] ?? menuOrder.count, $0) < (place[$1] ?? menuOrder.count, $1) }
    }
}

/// The last days' sales as bars, drawn on the server: one row a day, its length the juices made.
struct DayChart {
    struct Bar {
        let day: String
        let label: String
        let textY: Int
        let barY: Int
        let width: Int
        let labelX: Int
    }

    let bars: [Bar]
    let height: Int

    init(_ reports: [ZReport], words: ReportWords) {
        let most = max(reports.map(\.totals.made).max() ?? 0, 1)
        bars = reports.enumerated().map { index, report in
            let width = report.totals.made * 150 / most
            let y = index * 26
            return Bar(day: String(report.day.dropFirst(5)), label: words.chartBar.filling([
                "made": String(report.totals.made), "won": Won.format(report.totals.won),
            ]), textY: y + 17, barY: y + 5, width: width, labelX: 56 + width)
        }
        height = reports.count * 26 + 6
    }
}
