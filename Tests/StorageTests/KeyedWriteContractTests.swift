import Foundation
import JuiceBar
import NIOCore
import Storage
import Testing
import VendingMachine

/// What every engine must do with a write that carries its request's `Idempotency-Key`: the key
/// and its answer are kept in the write's own transaction, a key already held stops the write
/// before it acts, and a request's failure (no answer to keep) keeps nothing.
@Suite struct KeyedWriteContractTests {
    /// A key whose answer is the order's number, or the refusal's type: what a route would render.
    static func key(_ key: String, scope: String = "guest:a", request: String = "POST /api/orders\n{}",
                    at time: Date = TestShop.now()) -> IdempotentWrite {
        IdempotentWrite(scope: scope, key: key, request: request, time: time) { (result: Result<OrderReceipt, any Error>) in
            switch result {
            case .success(let receipt): StoredAnswer(status: 201, contentType: "text/plain", body: Array("order \(receipt.order.id)".utf8))
            case .failure(let error as OutOfStock): StoredAnswer(status: 409, contentType: "text/plain", body: Array("short \(error.juice)".utf8))
            case .failure: nil
            }
        }
    }

    @Test(arguments: Engine.available)
    func aKeyedOrderKeepsItsAnswerAndARepeatDoesNothing(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        let first = Self.key("k1")
        let receipt = try await store.order("bananaJuice", actor: "g", pickup: true, key: first)
        let answer = StoredAnswer(status: 201, contentType: "text/plain", body: Array("order \(receipt.order.id)".utf8))
        #expect(first.kept == answer, "the request sends the bytes kept")

        let repeated = Self.key("k1")
        await #expect(throws: KeyAlreadyUsed.self) { try await store.order("bananaJuice", actor: "g", pickup: true, key: repeated) }
        do {
            _ = try await store.order("bananaJuice", actor: "g", pickup: true, key: Self.key("k1"))
        } catch let used as KeyAlreadyUsed {
            #expect(used.claim == .answered(answer))
        }
        #expect(repeated.kept == nil)
        #expect(try await store.orders(limit: nil).map(\.id) == [receipt.order.id], "the repeat ordered nothing")
        #expect(try await store.stock() == receipt.stock, "nor took any fruit")

        let keys = shop.database.idempotency
        let now = TestShop.now()
        #expect(try await keys.find(scope: "guest:a", key: "k1", request: "POST /api/orders\n{}", at: now) == .answered(answer))
        #expect(try await keys.find(scope: "guest:a", key: "k1", request: "POST /api/orders\n{\"x\":1}", at: now) == .mismatch)
        #expect(try await keys.find(scope: "guest:b", key: "k1", request: "POST /api/orders\n{}", at: now) == nil,
                "keys are per scope")
        let reopened = try await shop.reopen().idempotency
        #expect(try await reopened.find(scope: "guest:a", key: "k1", request: "POST /api/orders\n{}", at: now) == .answered(answer))
        #expect(try await reopened.find(scope: "guest:a", key: "k1", request: "POST /api/orders\n{}", at: now + 86_401) == nil,
                "a key is kept for a day")
        let dayLater = try await store.order("bananaJuice", actor: "g", pickup: true, key: Self.key("k1", at: now + 86_401))
        #expect(dayLater.order.id != receipt.order.id, "a forgotten key acts again")
    }

    @Test(arguments: Engine.available)
    func aRefusalIsKeptInItsBatchAndAFailureKeepsNothing(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        let refused = Self.key("short")
        await #expect(throws: OutOfStock.self) { try await store.order("strawberryJuice", actor: "g", key: refused) }
        #expect(refused.kept == StoredAnswer(status: 409, contentType: "text/plain", body: Array("short strawberryJuice".utf8)))
        let keys = shop.database.idempotency
        #expect(try await keys.find(scope: "guest:a", key: "short", request: "POST /api/orders\n{}", at: TestShop.now())
                == .answered(refused.kept!))

        // An unknown juice is refused by the book too, but this key renders no answer for it: nothing is kept.
        let failed = Self.key("failed")
        await #expect(throws: SaleError.self) { try await store.order("noSuchJuice", actor: "g", key: failed) }
        #expect(failed.kept == nil)
        #expect(try await keys.find(scope: "guest:a", key: "failed", request: "POST /api/orders\n{}", at: TestShop.now()) == nil)
        let retried = try await store.order("bananaJuice", actor: "g", key: Self.key("failed"))
        #expect(try await store.orders(limit: nil).map(\.id) == [retried.order.id])
    }

    @Test(arguments: Engine.available)
    func concurrentWritesWithOneKeyOnTwoServersActOnce(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        // Another server on the same database: its own batches, its own transactions.
        let other = try await shop.reopen().juiceBar
        let before = try await store.stock().stock
        let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
            for attempt in 0..<20 {
                let store = attempt.isMultiple(of: 2) ? store : other
                group.addTask {
                    do {
                        return "\(try await store.order("bananaJuice", actor: "g", pickup: true, key: Self.key("same")).order.id)"
                    } catch let used as KeyAlreadyUsed {
                        return "\(used.claim)"
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let orders = try await store.orders(limit: nil)
        #expect(orders.count == 1)
        #expect(outcomes.filter { $0 == "\(orders[0].id)" }.count == 1, "\(outcomes)")
        #expect(try await store.stock().stock["banana"] == before["banana"] - 2)
    }

    @Test(arguments: Engine.available)
    func keyedMoneyAndPurchasesActOncePerKey(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.vending
        let now = TestShop.now()
        func key(_ name: String) -> IdempotentWrite {
            IdempotentWrite(scope: "guest:a", key: name, request: name, time: now) { (result: Result<VendingState, any Error>) in
                (try? result.get()).map { StoredAnswer(status: 200, contentType: "text/plain", body: Array("\($0.money.balance)".utf8)) }
            }
        }
        let paid = key("coin")
        #expect(try await store.insert(5_000, actor: "g", at: now, key: paid).money.balance == 5_000)
        #expect(paid.kept?.body == Array("5000".utf8))
        await #expect(throws: KeyAlreadyUsed.self) { try await store.insert(5_000, actor: "g", at: now, key: key("coin")) }
        let bought = IdempotentWrite(scope: "guest:a", key: "buy", request: "buy", time: now) { (result: Result<PurchaseReceipt, any Error>) in
            (try? result.get()).map { StoredAnswer(status: 201, contentType: "text/plain", body: Array("\($0.sale.id)".utf8)) }
        }
        let receipt = try await store.purchase("cola", actor: "g", at: now, key: bought)
        #expect(bought.kept?.body == Array("\(receipt.sale.id)".utf8))
        await #expect(throws: KeyAlreadyUsed.self) { try await store.purchase("cola", actor: "g", at: now, key: bought) }
        #expect(try await store.state(at: now).money.balance == 3_000, "money in once, one cola bought")
        #expect(try await store.history(limit: nil).count == 1)
    }

    @Test(arguments: Engine.available)
    func keyedMovesAndCancelsKeepTheirAnswerOrRefusalAndActOnce(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let store = shop.juiceBar
        func key(_ name: String) -> IdempotentWrite {
            IdempotentWrite(scope: "staff", key: name, request: name, time: TestShop.now()) { (result: Result<Order, any Error>) in
                switch result {
                case .success(let order): StoredAnswer(status: 200, contentType: "text/plain", body: Array("\(order.status)".utf8))
                case .failure(let error as OrderError): StoredAnswer(status: 409, contentType: "text/plain", body: Array("\(error)".utf8))
                case .failure: nil
                }
            }
        }
        let order = try await store.order("bananaJuice", actor: "g", pickup: true).order.id
        let moved = key("move")
        #expect(try await store.move(order: order, to: .making, actor: "s", key: moved).status == .making)
        #expect(moved.kept?.body == Array("making".utf8))
        await #expect(throws: KeyAlreadyUsed.self) { try await store.move(order: order, to: .making, actor: "s", key: key("move")) }
        let back = key("back")
        await #expect(throws: OrderError.self) { try await store.move(order: order, to: .received, actor: "s", key: back) }
        #expect(back.kept?.status == 409, "a refused move keeps its refusal")
        await #expect(throws: KeyAlreadyUsed.self) { try await store.move(order: order, to: .ready, actor: "s", key: key("back")) }
        #expect(try await store.order(id: order)?.status == .making, "the repeats moved nothing")

        let before = try await store.stock()
        let cancel = IdempotentWrite(scope: "staff", key: "cancel", request: "cancel", time: TestShop.now()) {
            (result: Result<OrderReceipt, any Error>) in
            (try? result.get()).map { StoredAnswer(status: 200, contentType: "text/plain", body: Array("\($0.order.status)".utf8)) }
        }
        let receipt = try await store.cancel(order: order, by: .staff, actor: "s", key: cancel)
        #expect(cancel.kept?.body == Array("cancelled".utf8))
        await #expect(throws: KeyAlreadyUsed.self) { try await store.cancel(order: order, by: .staff, actor: "s", key: cancel) }
        #expect(try await store.stock() == receipt.stock && receipt.stock != before, "the fruit went back once")
    }

    @Test(arguments: Engine.available)
    func anAnswerKeptOnItsOwnTakesTheKeyOnce(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let keys = shop.database.idempotency
        let answer = StoredAnswer(status: 400, contentType: "application/json", body: Array(#"{"error":"bad_json"}"#.utf8))
        #expect(try await keys.keep(answer, for: Self.key("bad")) == nil)
        #expect(try await keys.keep(answer, for: Self.key("bad")) == .answered(answer))
        #expect(try await keys.keep(answer, for: Self.key("bad", request: "other")) == .mismatch)
        await #expect(throws: KeyAlreadyUsed.self) {
            try await shop.juiceBar.order("bananaJuice", actor: "g", key: Self.key("bad"))
        }
        #expect(try await shop.juiceBar.orders(limit: nil).isEmpty)
    }

    @Test(arguments: Engine.available)
    func aKeyedBatchForgetsKeysPastTheirDay(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let keys = shop.database.idempotency
        let then = TestShop.now() - 90_000
        let answer = StoredAnswer(status: 201, contentType: "text/plain", body: [])
        #expect(try await keys.keep(answer, for: Self.key("old", at: then)) == nil)
        #expect(try await keys.find(scope: "guest:a", key: "old", request: "POST /api/orders\n{}", at: then) == .answered(answer))
        _ = try await shop.juiceBar.order("bananaJuice", actor: "g", key: Self.key("new"))
        #expect(try await keys.find(scope: "guest:a", key: "old", request: "POST /api/orders\n{}", at: then) == nil)
    }

    /// A key kept before fingerprints held its request's text (`METHOD PATH\nBODY`); the
    /// migration turns it into the fingerprint the same request has now, so a retry across the
    /// upgrade is still a replay.
    @Test(arguments: Engine.available)
    func aKeyKeptAsItsRequestsTextAnswersThatRequestAfterTheUpgrade(_ engine: Engine) async throws {
        let body = #"{"juice":"bananaJuice","pickup":true}"#
        let created = TestShop.now().timeIntervalSince1970
        let shop: TestShop
        if engine == .sqlite {
            shop = try await TestShop(sqliteUpTo: "idempotency.v3.keptInArrivalOrder", rows: """
                INSERT INTO idempotentRequest (scope, key, request, created, status, contentType, body)
                    VALUES ('guest:a', 'old', 'POST /api/orders\n\(body)', \(created), 201, 'text/plain', X'6f6c64')
                """)
        } else {
            shop = try await TestShop(engine)
            for statement in [
                "DELETE FROM schema_migration WHERE name = 'request_fingerprints.v11'",
                """
                INSERT INTO idempotent_request (scope, key, request, created, status, content_type, body)
                    VALUES ('guest:a', 'old', E'POST /api/orders\\n\(body)', \(created), 201, 'text/plain', '\\x6f6c64')
                """,
            ] { try await shop.executeBehindTheShop(statement) }
        }
        let keys = try await shop.reopen().idempotency
        let asked = RequestFingerprint.of(method: "POST", path: "/api/orders", body: ByteBuffer(string: body))
        #expect(try await keys.find(scope: "guest:a", key: "old", request: asked, at: TestShop.now())
                == .answered(StoredAnswer(status: 201, contentType: "text/plain", body: Array("old".utf8))))
        let other = RequestFingerprint.of(method: "POST", path: "/api/orders", body: ByteBuffer(string: "{}"))
        #expect(try await keys.find(scope: "guest:a", key: "old", request: other, at: TestShop.now()) == .mismatch)
    }
}
