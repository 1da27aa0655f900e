import Foundation
internal import GRDB
import Membership
@testable import Storage
import Testing

/// What every engine's `IdentityStore` (members' Kakao identities, sign-ins in flight) must do;
/// each test runs on each engine.
@Suite struct IdentityStoreContractTests {
    let now = TestShop.now()
    let kakao = ExternalIdentity.kakaoIssuer
    let otherIssuer = "https://id.example.com"

    @Test(arguments: Engine.available)
    func anIdentityIsLinkedToOneMemberAndUnlinkedUnlessItIsTheOnlyWayIn(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.accounts
        let kim = try await store.create(username: "kim", name: "Kim", passwordHash: "hash", role: .member)
        let lee = try await store.create(username: "lee", name: "Lee", passwordHash: "hash", role: .member)
        let identity = ExternalIdentity(issuer: kakao, subject: "1001")
        #expect(try await store.account(identity: identity) == nil)

        try await store.link(identity, to: kim.id, at: now)
        try await store.link(identity, to: kim.id, at: now)  // again: nothing changes
        var linkedKim = kim
        linkedKim.linkedIssuers = [kakao]
        // Another server on the same database knows the link, and every read of the account shows it.
        let other = try await shop.reopen().accounts
        #expect(try await other.account(identity: identity) == linkedKim)
        #expect(try await other.identities(accountID: kim.id) == [identity])
        #expect(try await other.accounts() == [linkedKim, lee])
        #expect(try await other.credentials(username: "kim")?.account == linkedKim)

        await #expect(throws: IdentityError.linkedToAnother) { try await other.link(identity, to: lee.id, at: now) }
        await #expect(throws: IdentityError.alreadyLinked) {
            try await store.link(ExternalIdentity(issuer: kakao, subject: "1002"), to: kim.id, at: now)
        }
        await #expect(throws: IdentityError.notLinked) { try await store.unlink(issuer: kakao, accountID: lee.id) }

        // Kim has a password, so Kakao is not the only way in.
        try await store.unlink(issuer: kakao, accountID: kim.id)
        #expect(try await store.account(identity: identity) == nil)
        #expect(try await store.identities(accountID: kim.id) == [])
        try await store.link(identity, to: lee.id, at: now)
        #expect(try await store.account(identity: identity)?.id == lee.id)
    }

    @Test(arguments: Engine.available)
    func aMemberWithoutAPasswordKeepsTheirLastIdentity(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.accounts
        let identity = ExternalIdentity(issuer: kakao, subject: "2001")
        let park = try await store.createMember(identity: identity, usernames: ["park"], name: "박", at: now)
        await #expect(throws: IdentityError.onlyWayIn) { try await store.unlink(issuer: kakao, accountID: park.id) }

        // With an identity at another provider too, either one may go, but not both.
        let elsewhere = ExternalIdentity(issuer: otherIssuer, subject: "park")
        try await store.link(elsewhere, to: park.id, at: now)
        #expect(try await store.identities(accountID: park.id) == [elsewhere, identity])
        #expect(try await store.account(identity: identity)?.linkedIssuers == [otherIssuer, kakao].sorted())
        try await store.unlink(issuer: kakao, accountID: park.id)
        await #expect(throws: IdentityError.onlyWayIn) { try await store.unlink(issuer: otherIssuer, accountID: park.id) }

        // Once they have a password, the last identity may go too.
        try await store.setPassword(accountID: park.id, hash: "new-hash")
        let credentials = try #require(try await store.credentials(username: "park"))
        #expect(credentials.passwordHash == "new-hash" && credentials.account.hasPassword)
        try await store.unlink(issuer: otherIssuer, accountID: park.id)
        #expect(try await store.identities(accountID: park.id) == [])
    }

    @Test(arguments: Engine.available)
    func twoUnlinksAtOnceLeaveAMemberWithoutAPasswordOneWayIn(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let stores = [shop.accounts, try await shop.reopen().accounts]
        for round in 0..<5 {
            let member = try await stores[0].createMember(
                identity: ExternalIdentity(issuer: kakao, subject: "race-\(round)"), usernames: ["racer"], name: "R", at: now)
            try await stores[0].link(ExternalIdentity(issuer: otherIssuer, subject: "race-\(round)"), to: member.id, at: now)
            let issuers = [kakao, otherIssuer]
            let unlinked = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<2 {
                    group.addTask { (try? await stores[index].unlink(issuer: issuers[index], accountID: member.id)) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(unlinked == 1)
            #expect(try await stores[0].identities(accountID: member.id).count == 1)
        }
    }

    @Test(arguments: Engine.available)
    func aNewMemberTakesTheFirstFreeUsernameAndHasNoPassword(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.accounts
        _ = try await store.create(username: "gimcheolsu", name: "김철수", passwordHash: "hash", role: .member)
        let usernames = ["gimcheolsu", "kakao_3001"]
        let first = ExternalIdentity(issuer: kakao, subject: "3001")
        let member = try await store.createMember(identity: first, usernames: usernames, name: "김철수", at: now)
        #expect(member == Account(id: member.id, username: "kakao_3001", name: "김철수", role: .member, createdAt: now,
                                  hasPassword: false, linkedIssuers: [kakao]))
        #expect(try await store.account(identity: first) == member)
        let credentials = try #require(try await store.credentials(username: "kakao_3001"))
        #expect(credentials.passwordHash == nil && credentials.account == member)

        // Every candidate taken: the first with a number after it.
        let second = try await store.createMember(
            identity: ExternalIdentity(issuer: kakao, subject: "3002"), usernames: usernames, name: "철수", at: now)
        #expect(second.username == "gimcheolsu2" && second.id != member.id)
        // The same identity again is the same member, whatever names it brings.
        #expect(try await store.createMember(identity: first, usernames: ["other"], name: "Other", at: now) == member)
        #expect(try await store.accounts().count == 3)
        #expect(try await store.hasStaff() == false)
    }

    @Test(arguments: Engine.available)
    func sameIdentityCreatedAtOnceOnTwoServersGivesOneMember(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let stores = [shop.accounts, try await shop.reopen().accounts]
        let now = self.now
        let kakao = self.kakao
        for round in 0..<3 {
            let identity = ExternalIdentity(issuer: kakao, subject: "40\(round)")
            let members = try await withThrowingTaskGroup(of: Account.self) { group in
                for attempt in 0..<8 {
                    group.addTask {
                        try await stores[attempt % 2].createMember(identity: identity, usernames: ["same"], name: "S", at: now)
                    }
                }
                return try await group.reduce(into: Set<Account>()) { $0.insert($1) }
            }
            #expect(members.count == 1)
        }
        #expect(try await stores[0].accounts().map(\.username) == ["same", "same2", "same3"])
    }

    @Test(arguments: Engine.available)
    func aPendingSignInIsTakenOnceAndOnlyBeforeItExpires(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.accounts
        let member = try await store.create(username: "kim", name: "Kim", passwordHash: "hash", role: .member)
        let pending = Self.pending("state-1", expires: now + 600, linking: member.id)
        try await store.savePendingSignIn(pending)
        try await store.savePendingSignIn(Self.pending("state-2", expires: now + 600, linking: nil))
        // Taken through another server, once.
        let other = try await shop.reopen().accounts
        #expect(try await other.takePendingSignIn(state: "state-1", now: now + 599) == pending)
        #expect(try await store.takePendingSignIn(state: "state-1", now: now + 599) == nil)
        #expect(try await store.takePendingSignIn(state: "unknown", now: now) == nil)
        // Too late: not given, and gone.
        #expect(try await store.takePendingSignIn(state: "state-2", now: now + 600) == nil)
        #expect(try await store.takePendingSignIn(state: "state-2", now: now) == nil)
    }

    @Test(arguments: Engine.available)
    func expiredPendingSignInsAreForgottenWhenOthersAreSaved(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.accounts
        // The store's clock is now: this one expired a second ago.
        try await store.savePendingSignIn(Self.pending("left-at-the-provider", expires: now - 1, linking: nil))
        try await store.savePendingSignIn(Self.pending("fresh", expires: now + 600, linking: nil))
        #expect(try await store.takePendingSignIn(state: "left-at-the-provider", now: now - 60) == nil)
        #expect(try await store.takePendingSignIn(state: "fresh", now: now) != nil)
    }

    @Test(arguments: Engine.available)
    func aPendingSignInTakenAtOnceOnTwoServersIsGivenToOne(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let stores = [shop.accounts, try await shop.reopen().accounts]
        let now = self.now
        for round in 0..<5 {
            let state = "state-\(round)"
            try await stores[0].savePendingSignIn(Self.pending(state, expires: now + 600, linking: nil))
            let given = try await withThrowingTaskGroup(of: Bool.self) { group in
                for attempt in 0..<10 {
                    group.addTask { try await stores[attempt % 2].takePendingSignIn(state: state, now: now) != nil }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(given == 1)
        }
    }

    @Test(arguments: Engine.available)
    func aRenameKeepsUsernamesUnique(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.accounts
        let kim = try await store.create(username: "kim", name: "Kim", passwordHash: "hash", role: .member)
        _ = try await store.create(username: "lee", name: "Lee", passwordHash: "hash", role: .member)
        await #expect(throws: AccountError.usernameTaken("lee")) { try await store.rename(accountID: kim.id, username: "lee") }
        try await store.rename(accountID: kim.id, username: "kim")
        try await store.rename(accountID: kim.id, username: "kim_2")
        #expect(try await store.credentials(username: "kim") == nil)
        #expect(try await store.credentials(username: "kim_2")?.account.id == kim.id)
    }

    static func pending(_ state: String, expires: Date, linking: Int64?) -> PendingSignIn {
        PendingSignIn(state: state, browser: String(repeating: "ab", count: 32), nonce: "nonce-\(state)",
                      codeVerifier: "verifier-\(state)", next: "/orders?x=1", language: "ko",
                      linkingAccountID: linking, expires: expires)
    }
}

/// The SQLite migration that lets an account have no password copies the `account` table.
@Suite struct AccountWithoutPasswordMigrationTests {
    @Test func accountsKeepTheirIdsSessionsAndOrdersAndNoIdIsGivenTwice() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("shop.sqlite").path
        let pool = try DatabasePool(path: path)
        try SQLiteSchema.migrator.migrate(pool, upTo: "shopSetting.v1")
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO account (username, name, passwordHash, role, createdAt) VALUES
                    ('kim', 'Kim', 'hash-1', 'member', 1), ('lee', 'Lee', 'hash-2', 'member', 2),
                    ('gone', 'Gone', 'hash-3', 'member', 3);
                DELETE FROM account WHERE username = 'gone';
                INSERT INTO session (token, accountId, expires) VALUES ('token', 2, 4000000000);
                INSERT INTO juiceOrder (juiceId, time, actor, accountId) VALUES ('strawberryBananaJuice', 1, 'lee', 2);
                """)
        }
        try pool.close()

        let shop = try await ShopDatabase.open(path)
        let lee = try #require(try await shop.accounts.account(sessionToken: "token", now: Date()))
        #expect(lee == Account(id: 2, username: "lee", name: "Lee", role: .member,
                               createdAt: Date(timeIntervalSince1970: 2)))
        #expect(try await shop.accounts.credentials(username: "kim")?.passwordHash == "hash-1")
        let new = try await shop.accounts.create(username: "park", name: "Park", passwordHash: "h", role: .member)
        #expect(new.id == 4, "the deleted account's id 3 is not given again")

        let check = try DatabaseQueue(path: path)
        let (violations, orders) = try await check.read { db in
            (try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM juice_order WHERE account_id = 2"))
        }
        #expect(violations == 0 && orders == 1)
        // The tables that refer to accounts still do (GRDB turns foreign keys on): deleting one takes its sessions along.
        let sessions = try await check.write { db in
            try db.execute(sql: "DELETE FROM juice_order; DELETE FROM account WHERE id = 2")
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM session")
        }
        #expect(sessions == 0)
    }
}
