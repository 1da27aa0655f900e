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

    func addRoutes(to pages: RouterGroup<ShopRequestContext>) {
        pages.group().add(middleware: SignInRequired.staffPages)
            .get("reports", use: reports)
    }

    @Sendable func reports(_ request: Request, context: ShopRequestContext) async throws -> Response {
        let account = try context.requireStaff()
        let words = Words.of(context.language)
        let reports = try await days.reports()
        let today = days.today
        return Templates.page(.reports, Model(
            header: PageHeader(.reports, title: words.reports.title, account: account, language: context.language, request: request),
            words: words.reports, common: words.common,
            rows: reports.reversed().map(Row.init), hasReports: !reports.isEmpty,
            chart: DayChart(reports.suffix(Self.chartDays).map(\.report), words: words.reports),
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
