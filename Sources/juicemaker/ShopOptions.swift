import App
import ArgumentParser
import DayClose
import Foundation
import JuiceBar
import Membership
import ShopBasics
import Storage
import Synchronization
import VendingMachine

/// The options every shop command shares: which database to use.
struct ShopOptions: ParsableArguments {
    @Option(help: """
        The SQLite file, or a postgres://user:password@host:port/database URL \
        (default: $JUICEMAKER_DATABASE, else ./juicemaker.sqlite).
        """)
    var database: String?

    var location: String {
        database ?? ProcessInfo.processInfo.environment["JUICEMAKER_DATABASE"] ?? "juicemaker.sqlite"
    }

    /// Whether the shop is on a PostgreSQL server rather than in a SQLite file.
    var isPostgres: Bool { ShopDatabase.isPostgres(location) }

    /// Opens the shop's database for this command; it is closed before the process ends.
    func open() async throws -> ShopDatabase {
        let database = try await ShopDatabase.open(location)
        openedDatabases.withLock { $0.append(database) }
        let calendar = try await database.calendar()
        openedShopCalendar.withLock { $0 = calendar }
        return database
    }

    /// Runs `operation` on the juice bar, a refusal ending the command as `refusingBadInput` says.
    func withJuiceBar<T>(_ operation: (any JuiceBarStore) async throws -> T) async throws -> T {
        try await refusingBadInput { try await operation(try await open().juiceBar) }
    }
}

/// The databases this process opened, so that `main` can close their connections at the end.
let openedDatabases = Mutex<[ShopDatabase]>([])

/// The calendar of the shop this process opened, its time zone as stored then: the days the CLI
/// counts (export periods, vending dates) are the shop's, whatever this machine's `TZ`.
let openedShopCalendar = Mutex<ShopCalendar?>(nil)

/// The calendar of the shop this command opened; asked for only once it is open.
var shopCalendar: ShopCalendar {
    guard let calendar = openedShopCalendar.withLock({ $0 }) else { preconditionFailure("the shop is not open yet") }
    return calendar
}

/// Who the CLI records in the ledger: the local user, so a ledger line says who typed it.
let cliActor = "cli:" + (ProcessInfo.processInfo.environment["USER"] ?? "local")

/// Refused input ends the command with exit code 2 and its one-line reason.
struct RefusedInput: Error, CustomStringConvertible {
    let description: String
}

/// The language the CLI's refusals are said in: the shop's, as its other output.
let cliLanguage = Language.ko

/// Runs a shop operation, ending a refusal in one line on standard error, in the shop's words:
/// exit 1 when the shop says no to valid input (the machine's balance, stock) or cannot store it
/// now (a full disk, the database away), exit 2 when the input itself is bad.
func refusingBadInput<T>(_ operation: () async throws -> T) async throws -> T {
    do {
        return try await operation()
    } catch let error as VendingError where error.isRefusal {
        throw fail(say(error, in: cliLanguage), code: 1)
    } catch let error as JuiceBarError {
        throw fail(say(error, in: cliLanguage), code: 2)
    } catch let error as SaleError {
        switch error {
        case .soldOut, .priceChanged, .notEnoughCash, .alreadyPaid, .orderCancelled: throw fail(say(error, in: cliLanguage), code: 1)
        default: throw fail(say(error, in: cliLanguage), code: 2)
        }
    } catch let error as VendingError {
        throw fail(say(error, in: cliLanguage), code: 2)
    } catch let error as AccountError {
        throw fail(say(error, in: cliLanguage), code: 2)
    } catch let error as ContentError {
        throw fail(say(error, in: cliLanguage), code: 2)
    } catch let error as OrderError where error.isBadInput {
        throw fail(say(error, in: cliLanguage), code: 2)
    } catch let error as OrderError {
        throw fail(say(error, in: cliLanguage), code: 1)
    } catch let error as DayCloseError {
        if case .unknownReport = error { throw fail(say(error, in: cliLanguage), code: 2) }
        throw fail(say(error, in: cliLanguage), code: 1)
    } catch let error as ShopInfoError {
        throw fail(say(error, in: cliLanguage), code: 2)
    } catch let error as ShopSettingError {
        if case .unknownTimeZone = error { throw fail(say(error, in: cliLanguage), code: 2) }
        throw fail(say(error, in: cliLanguage), code: 1)
    } catch let error as RefusedInput {
        throw fail(error.description, code: 2)
    } catch let error as StorageError where error.refusalCause != nil {
        throw fail(say(error, in: cliLanguage), code: 1)
    }
}

func fail(_ reason: String, code: Int32) -> ExitCode {
    FileHandle.standardError.write(Data("error: \(reason)\n".utf8))
    return ExitCode(code)
}

/// The options of a command that prints what it did or found: the shop, and `--json`.
struct AnswerOptions: ParsableArguments {
    @OptionGroup var shop: ShopOptions
    @Flag(help: "Print JSON: what the API answers for the same thing.") var json = false

    /// Prints what the command has to say: with `--json`, the JSON the API answers for the same
    /// thing (`answer`), so a script reads one shape from either; else `lines`, one a line, for a person.
    func print(_ answer: some Encodable, lines: () async throws -> [String]) async throws {
        if json { return Swift.print(try answerJSON(answer)) }
        for line in try await lines() { Swift.print(line) }
    }
}

/// A `--limit` that must be a positive whole number.
struct LimitOption: ParsableArguments {
    @Option(help: "Show only the newest N.")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }
}

/// `--csv` with an optional `--from`/`--to` period (whole shop days): what an export prints.
struct CSVOptions: ParsableArguments {
    @Flag(help: "Print CSV (RFC 4180, UTF-8 with a byte-order mark) instead, one row each.") var csv = false
    @Option(help: "With --csv: from this day on (YYYY-MM-DD).") var from: String?
    @Option(help: "With --csv: up to and including this day (YYYY-MM-DD).") var to: String?

    /// Prints `export` over the period, as it is read.
    func print<Row>(_ export: CSVExport<Row>) async throws {
        try await refusingBadInput {
            let period = try ShopExports.period(from: from, to: to, calendar: shopCalendar)
            try await export.write(from: period.from, until: period.until) { text in
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        }
    }
}

/// The options of a juice bar list that can also be exported: `--limit`, `--json`, `--csv` over a period.
struct ListOptions: ParsableArguments {
    @OptionGroup var options: AnswerOptions
    @OptionGroup var limit: LimitOption
    @OptionGroup var export: CSVOptions

    /// With `--csv`, every row of the export `csv` makes, oldest first; else the `newest` rows, as the
    /// API's JSON or one `line` each.
    func print<Row: Encodable, Exported>(
        csv: (any JuiceBarStore, Menu) -> CSVExport<Exported>,
        newest: (any JuiceBarStore, Int?) async throws -> [Row],
        line: (Row) -> String
    ) async throws {
        try await options.shop.withJuiceBar { store in
            if export.csv { return try await export.print(csv(store, try await store.menu())) }
            let rows = try await newest(store, limit.limit)
            try await options.print(rows) { rows.map(line) }
        }
    }
}
