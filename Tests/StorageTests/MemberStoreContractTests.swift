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
    func signInAttemptsAreClaimedPerUsernameUpToTheLimitWithinTheWindow(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.accounts
        let times = (0..<3).map { now.addingTimeInterval(Double($0)) }
        var claimed: [Int64] = []
        for time in times {
            guard case .claimed(let id) = try await store.claimSignInAttempt(
                username: "kim", at: time, since: time - 60, limit: 3) else { Issue.record("refused early"); return }
            claimed.append(id)
        }
        let later = now.addingTimeInterval(10)
        #expect(try await store.claimSignInAttempt(username: "kim", at: later, since: later - 60, limit: 3)
                == .refused(attempts: times))
        // Another username has its own count; a withdrawn attempt no longer counts.
        #expect(try await store.claimSignInAttempt(username: "lee", at: later, since: later - 60, limit: 3).isClaimed)
        try await store.withdrawSignInAttempt(claimed[0])
        #expect(try await store.claimSignInAttempt(username: "kim", at: later, since: later - 60, limit: 3).isClaimed,
                "a withdrawn attempt no longer counts")
        // Attempts older than the window no longer count.
        let muchLater = now.addingTimeInterval(1_000)
        #expect(try await store.claimSignInAttempt(username: "kim", at: muchLater, since: muchLater - 60, limit: 3).isClaimed,
                "attempts outside the window no longer count")
    }

    @Test(arguments: Engine.available)
    func aBurstOfSignInAttemptsFromTwoServersClaimsNoMoreThanTheLimit(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let stores = [shop.accounts, try await shop.reopen().accounts]
        let now = self.now
        let claims = try await withThrowingTaskGroup(of: SignInClaim.self) { group in
            for attempt in 0..<60 {
                group.addTask {
                    try await stores[attempt % 2].claimSignInAttempt(username: "kim", at: now, since: now - 60, limit: 5)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(claims.filter(\.isClaimed).count == 5)
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

extension SignInClaim {
    var isClaimed: Bool {
        if case .claimed = self { true } else { false }
    }
}
