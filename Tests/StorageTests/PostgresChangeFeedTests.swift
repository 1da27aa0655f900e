import Foundation
import Logging
import PostgresNIO
@testable import Storage
import Synchronization
import Testing

/// Another instance's commits, as this server hears them (`LISTEN`): under a stream of them it
/// reads the shop again at most once a `refreshPause`, and the last one is never left unread.
@Suite(.enabled(if: Engine.postgresURL != nil, "needs the test PostgreSQL server"))
struct PostgresChangeFeedTests {
    @Test func aStreamOfNoticesIsReadOncePerPauseAndTheLastOneIsRead() async throws {
        let shop = try await TestShop(.postgres)
        let location = try #require(try PostgresLocation(shop.location))
        let database = try await PostgresDatabase(location)
        let reads = Mutex<[ContinuousClock.Instant]>([])
        let watching = Task {
            try await PostgresChangeFeed(database: database).watch { reads.withLock { $0.append(.now) } }
        }
        // The first read comes once it listens.
        for _ in 0..<500 where reads.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        try #require(reads.withLock { $0.count } == 1, "the feed did not start listening within 5 s")

        let other = try await PostgresConnection.connect(
            configuration: try location.connectionConfiguration(), id: 1, logger: Logger(label: "test"))
        let notices = 60
        let started = ContinuousClock.now
        // When the last notice was committed: a read from then on sees what it announced. (Taken
        // after the pause that follows it, a read made at once, within those 20 ms, looked early.)
        var lastNotice = started
        for _ in 0..<notices {
            try await other.run("SELECT pg_notify(\(PostgresDatabase.channel), 'another instance')")
            lastNotice = .now
            try await Task.sleep(for: .milliseconds(20))
        }
        let streamEnded = ContinuousClock.now
        try await other.close()
        try await Task.sleep(for: PostgresChangeFeed.refreshPause * 3)

        let afterNotices = reads.withLock { $0 }.dropFirst()
        let streamed = streamEnded - started
        let most = Int((streamed / PostgresChangeFeed.refreshPause).rounded(.up)) + 1
        #expect((2...most).contains(afterNotices.count),
                "\(notices) notices over \(streamed) were read \(afterNotices.count) times; at most \(most) folds them")
        for (earlier, later) in zip(afterNotices, afterNotices.dropFirst()) {
            #expect(later - earlier >= PostgresChangeFeed.refreshPause, "two reads \(later - earlier) apart")
        }
        #expect(try #require(afterNotices.last) > lastNotice, "the last notice was not read")
        watching.cancel()
        _ = await watching.result
        await database.close()
    }
}
