import Foundation
import JuiceBar
import Membership
import ShopBasics
import Storage

/// What staff post and members see: What's New, the event pop-up and uploaded images.
public struct ContentService: Sendable {
    let store: any ContentStore
    let accounts: any AccountStore
    /// The shop's calendar at each use: it follows a time zone changed while the server runs.
    let calendar: @Sendable () -> ShopCalendar
    let now: @Sendable () -> Date

    public init(store: any ContentStore, accounts: any AccountStore, calendar: @escaping @Sendable () -> ShopCalendar,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.accounts = accounts
        self.calendar = calendar
        self.now = now
    }

    /// Stores an upload after checking what it really is; nil when there is no file.
    func storeImage(_ bytes: [UInt8]?) async throws -> Int64? {
        guard let bytes, !bytes.isEmpty else { return nil }
        let kind = try ImageKind.validate(bytes)
        return try await store.addImage(bytes, kind: kind)
    }

    func image(_ id: Int64) async throws -> StoredImage? { try await store.image(id) }

    public func postNews(title: String, body: String, image: [UInt8]?) async throws -> NewsItem {
        try ContentRules.validate(title: title, body: body)
        let imageID = try await storeImage(image)
        return try await store.addNews(title: title, body: body, imageID: imageID, at: now())
    }

    public func news(limit: Int? = nil) async throws -> [NewsItem] { try await store.news(limit: limit) }

    public func postEvent(title: String, body: String, image: [UInt8]?, start: String, end: String) async throws -> ShopEvent {
        try ContentRules.validate(title: title, body: body)
        guard let first = calendar().day(start) else { throw ContentError.invalidDay(start) }
        guard let last = calendar().day(end) else { throw ContentError.invalidDay(end) }
        guard first <= last else { throw ContentError.endsBeforeItStarts }
        let imageID = try await storeImage(image)
        return try await store.addEvent(title: title, body: body, imageID: imageID, start: first, end: last)
    }

    func event(_ id: Int64) async throws -> ShopEvent? { try await store.event(id) }

    /// The event running now, whether or not anyone has seen it.
    public func currentEvent() async throws -> ShopEvent? {
        let now = now()
        return try await store.events(endingAfter: now).first { $0.isCurrent(at: now, calendar: calendar().calendar) }
    }

    /// The event to pop up for this member in this session: the current one, unless they hid it
    /// for today or this sign-in has already shown it.
    func eventToShow(account: Account, sessionToken: String) async throws -> ShopEvent? {
        guard let event = try await currentEvent(),
              try await !accounts.isEventDismissed(event.id, accountID: account.id, at: now()),
              try await !accounts.markEventShown(event.id, sessionToken: sessionToken)
        else { return nil }
        return event
    }

    /// "오늘 하루 보지 않기": hidden for this member until the shop's next midnight.
    public func hideForToday(_ eventID: Int64, account: Account) async throws {
        try await accounts.dismissEvent(eventID, accountID: account.id, until: calendar().startOfNextDay(after: now()))
    }
}
