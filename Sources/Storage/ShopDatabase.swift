import Foundation
import JuiceBar
import Logging
import ShopBasics

/// Tells a process when another one (the CLI, another server) has committed a change, so that
/// what it holds in memory can be read again.
public protocol ChangeFeed: Sendable {
    /// Calls `changed` once as soon as it is watching (what changed before is read then), and
    /// again after commits made elsewhere, until the task is cancelled or the feed breaks (then
    /// it throws and the caller may watch again). Changes that arrive while `changed` runs are
    /// folded into one more call.
    /// When `changed` throws (the change could not be read), watching ends with its error.
    func watch(_ changed: @escaping @Sendable () async throws -> Void) async throws
}

/// Everything the shop keeps, on the engine its location names: a SQLite file by default, or a
/// PostgreSQL database shared by several servers when the location is a `postgres://` URL.
/// Nothing above this type knows which engine it has.
public struct ShopDatabase: Sendable {
    public let juiceBar: any JuiceBarStore
    public let vending: any VendingStore
    public let accounts: any AccountStore
    /// Members' identities at outside providers (Kakao): the account store is also this.
    public var identities: any IdentityStore { accounts }
    public let content: any ContentStore
    /// Answers kept for requests that carry an `Idempotency-Key`.
    public let idempotency: any IdempotencyStore
    /// The closed days' reports.
    public let days: any DayReportStore
    /// The shop's own settings: its time zone, and its info for receipts.
    public let settings: any ShopSettingStore
    /// Commits made by other processes.
    public let changes: any ChangeFeed
    private let closeConnections: @Sendable () async -> Void

    /// Opens (creating and migrating as needed) the database at `location`.
    /// `now` is the clock the stores stamp orders, accounts and sessions with.
    /// Shop days (order numbers start again at 1 on each) are counted in the time zone stored in
    /// `settings`, whatever the machine's. A shop this creates starts with `newShopTimeZone`, or
    /// when nil with `TZ` if that names a zone, else Asia/Seoul; an existing shop keeps its own.
    public static func open(_ location: String, newShopTimeZone: TimeZone? = nil,
                            now: @escaping @Sendable () -> Date = Date.init) async throws -> ShopDatabase {
        try await ShopTimeZone.$newShop.withValue(newShopTimeZone?.identifier) {
            try await openStores(location, now: now)
        }
    }

    /// Opens the database at `location` as `open` does; a PostgreSQL server that does not accept
    /// connections yet (the machine booting, a container starting) is asked again, less and less
    /// often, for up to `wait`, the log saying `waiting for PostgreSQL` once. Past it, the last
    /// `StorageError.unreachable` comes out.
    public static func open(_ location: String, waitingUpTo wait: Duration, logger: Logger,
                            newShopTimeZone: TimeZone? = nil,
                            now: @escaping @Sendable () -> Date = Date.init) async throws -> ShopDatabase {
        let giveUp = ContinuousClock.now + wait
        var pause = Duration.milliseconds(250)
        var said = false
        while true {
            do {
                return try await open(location, newShopTimeZone: newShopTimeZone, now: now)
            } catch StorageError.unreachable(let reason) where ContinuousClock.now < giveUp {
                if !said {
                    logger.notice("waiting for PostgreSQL", metadata: ["for": "\(wait)", "reason": "\(reason)"])
                    said = true
                }
                try await Task.sleep(for: min(pause, giveUp - ContinuousClock.now))
                pause = min(pause * 2, .seconds(1))
            }
        }
    }

    private static func openStores(_ location: String, now: @escaping @Sendable () -> Date) async throws -> ShopDatabase {
        if let url = try PostgresLocation(location) {
            let database = try await PostgresDatabase(url)
            return ShopDatabase(
                juiceBar: PostgresJuiceBarStore(database: database, now: now),
                vending: PostgresVendingStore(database: database),
                accounts: PostgresAccountStore(database: database, now: now),
                content: PostgresContentStore(database: database),
                idempotency: PostgresIdempotencyStore(database: database),
                days: PostgresDayReportStore(database: database),
                settings: PostgresShopSettingStore(database: database),
                changes: database.changeFeed,
                closeConnections: { await database.close() })
        }
        let database = try SQLiteDatabase(path: location)
        return ShopDatabase(
            juiceBar: SQLiteJuiceBarStore(database: database, now: now),
            vending: SQLiteVendingStore(database: database),
            accounts: SQLiteAccountStore(database: database, now: now),
            content: SQLiteContentStore(database: database),
            idempotency: SQLiteIdempotencyStore(database: database),
            days: SQLiteDayReportStore(database: database),
            settings: SQLiteShopSettingStore(database: database),
            changes: try database.makeChangeFeed(),
            closeConnections: {})
    }

    /// Whether `location` names a PostgreSQL database rather than a SQLite file.
    public static func isPostgres(_ location: String) -> Bool { PostgresLocation.names(location) }

    /// The shop's calendar as its time zone is stored now.
    public func calendar() async throws -> ShopCalendar {
        ShopCalendar(timeZone: try await settings.timeZone())
    }

    /// The shop's name, 사업자등록번호, address and phone, as its receipts print them.
    public func shopInfo() async throws -> ShopInfo {
        try await settings.shopInfo()
    }

    /// Ends the connections to a database server; a SQLite file needs nothing.
    public func close() async {
        await closeConnections()
    }
}
