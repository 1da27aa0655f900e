import App
import ArgumentParser
import DayClose
import Foundation
import JuiceBar
import ShopBasics
import Storage
import VendingMachine

struct CloseDayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "close-day",
        abstract: "Close the shop day under way (the shop's time zone) and store its Z report. Exits 1 when it is already closed.")
    @OptionGroup var shop: ShopOptions
    @Flag(help: "Print the report as JSON.") var json = false

    func run() async throws {
        let sealed = try await refusingBadInput { try await shop.days().close() }
        if json { return print(sealed.json) }
        let report = sealed.report
        let net = report.netTakings.map { $0 + ", " } ?? ""
        print("\(report.day) 마감 보고서 \(report.number)번: 쥬스 \(report.totals.made)잔 (취소 \(report.totals.cancelled)), "
              + "과일 \(report.totals.fruitUsed)개, \(net)자판기 \(Won.format(report.totals.won)) · hash \(sealed.hash)")
        if let takings = report.takings {
            print("  현금 \(Won.format(takings.cashInDrawer)) · 카드 \(Won.format(takings.methods["card"]?.net ?? 0)) · "
                  + "계좌이체 \(Won.format(takings.methods["transfer"]?.net ?? 0)) · 환불 \(Won.format(takings.refunds)) · "
                  + "부가세 \(Won.format(takings.vat))")
            if !takings.unpaidPickedUp.isEmpty {
                print("  결제하지 않고 가져간 주문 \(takings.unpaidPickedUp.count)건: "
                      + takings.unpaidPickedUp.map { "#\($0)" }.joined(separator: ", "))
            }
        }
    }
}

struct DaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "days", abstract: "The closed shop days' Z reports.",
        subcommands: [List.self, Show.self, Verify.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every report, oldest first.")
        @OptionGroup var shop: ShopOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let reports = try await shop.days().reports()
            if json { return print(SealedReport.json(reports)) }
            for sealed in reports {
                let totals = sealed.report.totals
                let net = sealed.report.netTakings.map { $0 + "\t" } ?? ""
                print("\(sealed.report.number)\t\(sealed.report.day)\t쥬스 \(totals.made)잔\t취소 \(totals.cancelled)\t"
                      + "\(net)자판기 \(Won.format(totals.won))\t\(sealed.hash.prefix(12))")
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One report, as JSON. Exits 2 when there is none.")
        @OptionGroup var shop: ShopOptions
        @Argument(help: "The report's number.") var number: String

        func run() async throws {
            let found = try await refusingBadInput {
                guard let number = Int(number), let report = try await shop.days().report(number: number) else {
                    throw DayCloseError.unknownReport(number)
                }
                return report
            }
            print(found.json)
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: """
            Recompute every report from the stored orders, ledgers and sales, and check the hash chain. \
            Exits 1 naming the first report that no longer matches, 0 when all match.
            """)
        @OptionGroup var shop: ShopOptions

        func run() async throws {
            do {
                let reports = try await shop.days().verify()
                print("all \(reports.count) day reports match the stored records")
            } catch let broken as BrokenReport {
                throw fail("day report \(broken.number) (\(broken.day)) no longer matches: \(broken.reason.description)", code: 1)
            }
        }
    }
}

extension ZReport {
    /// `순매출 25,500원`: the counter's net takings, for the reports that have them.
    fileprivate var netTakings: String? {
        takings.map { "순매출 \(Won.format($0.net))" }
    }
}

extension BrokenReport.Reason: CustomStringConvertible {
    public var description: String {
        switch self {
        case .hash: "its hash is not the hash of its text"
        case .chain: "it does not follow the report before it"
        case .unreadable: "its text is not a report"
        case .records(let parts): "recomputed from the stored records, its \(parts.joined(separator: ", ")) differ"
        }
    }
}

extension ShopOptions {
    func days() async throws -> ShopDays {
        let database = try await open()
        return ShopDays(database, calendar: try await database.calendar())
    }
}
