import Foundation
import Membership
import Storage
import Testing

/// What every engine's `AccountStore` and `ContentStore` must do; each test runs on each engine.
@Suite struct MemberStoreContractTests {
    let now = TestShop.now()

    @Test(arguments: Engine.available)
    func usernamesAreUniqueAndCredentialsComeBack(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.accounts
        #expect(try await store.hasStaff() == false)
        let staff = try await store.create(username: "boss", name: "Boss", passwordHash: "hash-1", role: .staff)
        await #expect(throws: AccountError.usernameTaken("boss")) {
            try await store.create(username: "boss", name: "Other", passwordHash: "hash-2", role: .member)
        }
        let member = try await store.create(username: "kim", name: "김", passwordHash: "hash-3", role: .member)
        #expect(try await store.hasStaff())
        #expect(try await store.accounts() == [staff, member])
        let credentials = try #require(try await store.credentials(username: "kim"))
        #expect(credentials.account == member && credentials.passwordHash == "hash-3")
        #expect(try await store.credentials(username: "nobody") == nil)
    }

    @Test(arguments: Engine.available)
    func sessionsLastUntilTheyExpireOrAreDeleted(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let account = try await shop.accounts.create(username: "kim", name: "Kim", passwordHash: "h", role: .member)
        try await shop.accounts.createSession(token: "token-1", accountID: account.id, expires: now.addingTimeInterval(60))
        // Another server on the same database knows the session.
        let other = try await shop.reopen().accounts
        #expect(try await other.account(sessionToken: "token-1", now: now) == account)
        #expect(try await other.account(sessionToken: "token-1", now: now.addingTimeInterval(61)) == nil)
        #expect(try await other.account(sessionToken: "token-2", now: now) == nil)
        try await other.deleteSession(token: "token-1")
        #expect(try await shop.accounts.account(sessionToken: "token-1", now: now) == nil)
    }

    @Test(arguments: Engine.available)
    func failedSignInsAreCountedPerUsernameUntilCleared(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.accounts
        let times = (0..<3).map { now.addingTimeInterval(Double($0)) }
        for time in times { try await store.recordFailedSignIn(username: "kim", at: time) }
        try await store.recordFailedSignIn(username: "lee", at: now)
        #expect(try await store.failedSignIns(username: "kim", since: now.addingTimeInterval(-1)) == times)
        #expect(try await store.failedSignIns(username: "kim", since: times[1]) == Array(times[1...]))
        try await store.clearFailedSignIns(username: "kim")
        #expect(try await store.failedSignIns(username: "kim", since: .distantPast).isEmpty)
        #expect(try await store.failedSignIns(username: "lee", since: .distantPast) == [now])
    }

    @Test(arguments: Engine.available)
    func anEventIsShownOncePerSessionAndHiddenUntilAMoment(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.accounts
        let account = try await store.create(username: "kim", name: "Kim", passwordHash: "h", role: .member)
        try await store.createSession(token: "token", accountID: account.id, expires: now.addingTimeInterval(60))
        #expect(try await store.markEventShown(1, sessionToken: "token") == false)
        #expect(try await store.markEventShown(1, sessionToken: "token") == true)
        #expect(try await store.markEventShown(2, sessionToken: "token") == false)

        let midnight = now.addingTimeInterval(3_600)
        try await store.dismissEvent(2, accountID: account.id, until: midnight)
        #expect(try await store.isEventDismissed(2, accountID: account.id, at: now))
        #expect(try await store.isEventDismissed(2, accountID: account.id, at: midnight) == false)
        #expect(try await store.isEventDismissed(1, accountID: account.id, at: now) == false)
        // Hiding it again moves the moment.
        try await store.dismissEvent(2, accountID: account.id, until: midnight.addingTimeInterval(86_400))
        #expect(try await store.isEventDismissed(2, accountID: account.id, at: midnight))
    }

    @Test(arguments: Engine.available)
    func imagesComeBackByteForByte(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.content
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0...255).map(UInt8.init)
        let id = try await store.addImage(bytes, kind: .png)
        let image = try #require(try await store.image(id))
        #expect(image.bytes == bytes && image.kind == .png)
        #expect(try await store.image(id + 1) == nil)
    }

    @Test(arguments: Engine.available)
    func newsIsNewestFirstAndEventsEndAfterTheirLastDay(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.content
        let older = try await store.addNews(title: "오픈", body: "첫 소식", imageID: nil, at: now.addingTimeInterval(-60))
        let newer = try await store.addNews(title: "신메뉴", body: "<b>망고</b>", imageID: nil, at: now)
        #expect(try await store.news(limit: nil) == [newer, older])
        #expect(try await store.news(limit: 1) == [newer])

        let day: TimeInterval = 86_400
        let over = try await store.addEvent(title: "지난 행사", body: "", imageID: nil,
                                            start: now.addingTimeInterval(-10 * day), end: now.addingTimeInterval(-3 * day))
        let current = try await store.addEvent(title: "행사", body: "1+1", imageID: nil,
                                               start: now.addingTimeInterval(-day), end: now.addingTimeInterval(day))
        #expect(try await store.events(endingAfter: now) == [current])
        #expect(try await store.event(over.id) == over)
        #expect(try await store.event(current.id + 100) == nil)
    }
}
