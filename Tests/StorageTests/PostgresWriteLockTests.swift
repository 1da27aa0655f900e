import Foundation
import JuiceBar
import Logging
import PostgresNIO
@testable import Storage
import Testing

/// A write's first statement takes its part's lock and then reads; these pin down that the read
/// comes after the wait for the lock, and that a lock held too long makes the write busy.
@Suite(.enabled(if: Engine.postgresURL != nil, "needs the test PostgreSQL server"))
struct PostgresWriteLockTests {
    /// Another instance holds the fruit stock's lock and sells the last bananas; an order that
    /// waited for that lock must see them gone. Read from before its wait, it would sell them again.
    @Test func aWriteDecidesOnWhatTheLocksLastHolderCommitted() async throws {
        let shop = try await TestShop(.postgres)
        try await withConnection(to: shop) { other in
            try await other.run("BEGIN")
            try await other.run("SELECT pg_advisory_xact_lock(\(PostgresDatabase.Part.fruitStock.rawValue))")
            try await other.run("UPDATE fruit SET count = 0 WHERE id = 'banana'")
            let ordering = Task { try await shop.juiceBar.order("bananaJuice", actor: "test") }
            try await waitUntilSomeoneWaitsForALock(other)
            try await other.run("COMMIT")
            await #expect(throws: OutOfStock.self) { try await ordering.value }
        }
        #expect(try await shop.juiceBar.stock().stock["banana"] == 0)
        #expect(try await shop.juiceBar.orders(limit: nil).isEmpty)
    }

    /// Orders that come while this server's batch waits for the lock join that batch once it
    /// holds the lock: one hold and one commit serve them all, so they share the stock version
    /// their batch left. Left for the next batch, they would each wait for a hold of their own.
    @Test func ordersThatComeWhileABatchWaitsForTheLockJoinIt() async throws {
        let shop = try await TestShop(.postgres)
        try await withConnection(to: shop) { other in
            try await other.run("BEGIN")
            try await other.run("SELECT pg_advisory_xact_lock(\(PostgresDatabase.Part.fruitStock.rawValue))")
            let first = Task { try await shop.juiceBar.order("bananaJuice", actor: "test") }
            try await waitUntilSomeoneWaitsForALock(other)
            // Each starts at once and is in the batcher's line when `immediate` returns.
            let latecomers = (0..<3).map { _ in
                Task.immediate { try await shop.juiceBar.order("pineappleJuice", actor: "test") }
            }
            try await other.run("COMMIT")
            let batch = try await first.value.stock.version
            for latecomer in latecomers {
                #expect(try await latecomer.value.stock.version == batch)
            }
        }
        let stock = try await shop.juiceBar.stock()
        #expect(stock.stock["banana"] == 8)
        #expect(stock.stock["pineapple"] == 4)
        #expect(try await shop.juiceBar.orders(limit: nil).count == 4)
    }

    /// The connections are served on the batch thread: a batch reads each answer on the thread
    /// it resumes on, not behind the requests on the server's event loops.
    @Test func theDatabasesConnectionsAreServedOnTheBatchThread() async throws {
        let shop = try await TestShop(.postgres)
        let database = try await PostgresDatabase(try #require(try PostgresLocation(shop.location)))
        let loop = try await database.connections.withConnection { $0.eventLoop }
        await database.close()
        #expect(loop === BatchThread.group.next())
    }

    /// A lock held past `lockTimeout` (an instance stuck mid-transaction) makes writes busy, not stuck.
    @Test func aWriteThatCannotGetTheLockInTimeIsBusy() async throws {
        let shop = try await TestShop(.postgres)
        try await withConnection(to: shop) { other in
            try await other.run("BEGIN")
            try await other.run("SELECT pg_advisory_xact_lock(\(PostgresDatabase.Part.vendingMachine.rawValue))")
            await #expect {
                try await shop.vending.insert(1000, actor: "test", at: TestShop.now())
            } throws: { error in
                if case StorageError.busy = error { true } else { false }
            }
            try await other.run("ROLLBACK")
        }
        #expect(try await shop.vending.state(at: TestShop.now()).money.balance == 0)
    }

    private func withConnection(to shop: TestShop, _ body: (PostgresConnection) async throws -> Void) async throws {
        let location = try #require(try PostgresLocation(shop.location))
        let connection = try await PostgresConnection.connect(
            configuration: try location.connectionConfiguration(), id: 1, logger: Logger(label: "test"))
        do {
            try await body(connection)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    /// Returns once a session of the database waits for an advisory lock (PostgreSQL's own view of its locks).
    private func waitUntilSomeoneWaitsForALock(_ connection: PostgresConnection) async throws {
        for _ in 0..<500 {
            let waiting = try await connection.row(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").decode(Int.self)
            if waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("no write waited for the lock within 5 s")
    }
}
