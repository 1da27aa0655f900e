import Foundation
import JuiceBar
import ShopBasics
import Synchronization

/// The shop's own settings, kept with its records so every server and CLI command agrees on them
/// whatever the machine they run on: the time zone its days are counted in, and the shop's info
/// its receipts print (name, 사업자등록번호, address, phone).
public protocol ShopSettingStore: Sendable {
    /// The time zone the shop counts its days in (shop days, order numbers, events, reports).
    func timeZone() async throws -> TimeZone
    /// Sets the shop's time zone. Refused (`ShopSettingError.ordersQueued`) while orders of the
    /// shop day under way at `now` are still in the queue; the check and the change are one write,
    /// which orders wait for, so no order is numbered by a zone that is no longer the shop's.
    func setTimeZone(_ zone: TimeZone, at now: Date) async throws
    /// The shop's info for its receipts; `ShopInfo.unset` until it is first set.
    func shopInfo() async throws -> ShopInfo
    /// Stores what `change` makes of the info as stored, read and written in one write, so two
    /// changes of different fields made at once both take; returns what was stored. A `change`
    /// that throws changes nothing.
    func changeShopInfo(_ change: @escaping @Sendable (ShopInfo) throws -> ShopInfo) async throws -> ShopInfo
}

extension ShopSettingStore {
    /// Replaces the shop's info whole.
    public func setShopInfo(_ info: ShopInfo) async throws {
        _ = try await changeShopInfo { _ in info }
    }

    /// Changes the fields `edit` gives (`juicemaker shop info`, `PATCH /api/shop`); returns the
    /// info as stored now. Refused (`ShopInfoError`) when the result is not a valid info.
    public func editShopInfo(_ edit: ShopInfoEdit) async throws -> ShopInfo {
        try await changeShopInfo { info in try edit.applied(to: info) }
    }
}

/// Why the shop's settings were not changed.
public enum ShopSettingError: Error, Equatable {
    /// Not an IANA time zone name such as `Asia/Seoul`.
    case unknownTimeZone(String)
    /// Orders of the shop day under way are still received, being made or ready.
    case ordersQueued(day: String, count: Int)
}

/// The names a shop's time zone is given by.
public enum ShopTimeZone {
    /// The shop's zone when the process's `TZ` names none.
    public static let fallback = "Asia/Seoul"

    /// The zone an IANA name stands for (`Asia/Seoul`, `UTC`); nil for anything else, offsets
    /// such as `GMT+9` included, which a reader would take for something they are not.
    public static func named(_ name: String) -> TimeZone? {
        guard let zone = TimeZone(identifier: name), zone.identifier == name || name == "UTC" else { return nil }
        return zone
    }

    /// The zone `ShopDatabase.open` was told a shop it creates should start with, if any: the
    /// migrations read it here as they take no arguments.
    @TaskLocal static var newShop: String?

    /// How a person names `zone`: Foundation calls UTC `GMT`, which is not what anyone typed.
    public static func name(of zone: TimeZone) -> String {
        zone.identifier == "GMT" ? "UTC" : zone.identifier
    }

    /// The zone a new shop starts with, and a shop made before it kept its own: the process's
    /// `TZ` when that names a zone (POSIX allows a leading `:`), else Asia/Seoul.
    static func initialName(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let chosen = newShop { return chosen }
        var name = environment["TZ"] ?? ""
        if name.hasPrefix(":") { name.removeFirst() }
        return named(name) == nil ? fallback : name
    }

    /// The zone a stored name stands for. Only names `named` took are stored; one edited behind
    /// the shop's back falls back to Asia/Seoul rather than stopping the shop.
    static func stored(_ name: String) -> TimeZone {
        named(name) ?? TimeZone(identifier: fallback)!
    }
}

/// The shop's calendar as last read from its settings, for what counts days outside a write:
/// "today" on the reports page, event days, "hide for today", exports' from/to days. A server
/// refreshes it whenever another process commits (its change feed), so a change made with the CLI
/// is followed without a restart. Orders are never numbered by this copy: each batch of orders
/// reads the zone inside its own write.
public final class LiveShopCalendar: Sendable {
    private let settings: any ShopSettingStore
    private let calendar: Mutex<ShopCalendar>

    public init(settings: any ShopSettingStore) async throws {
        self.settings = settings
        calendar = Mutex(ShopCalendar(timeZone: try await settings.timeZone()))
    }

    public var current: ShopCalendar { calendar.withLock { $0 } }

    /// Reads the stored zone again.
    public func refresh() async throws {
        let fresh = ShopCalendar(timeZone: try await settings.timeZone())
        calendar.withLock { $0 = fresh }
    }
}
