import Foundation
import JuiceBar
internal import GRDB
@testable import Storage
import Synchronization
import Testing
import VendingMachine

/// What the SQLite engine promises about its file: commits synced to disk, a file that is not
/// a shop never silently replaced, a full disk or a vanished file refused with nothing partial.
@Suite struct SQLiteFileTests {
    let folder: TemporaryFolder
    let path: String

    init() throws {
        folder = try TemporaryFolder()
        path = folder.url.appendingPathComponent("shop.sqlite").path
    }

    @Test func theWriterSyncsEveryCommitAfterGRDBsWALSetUp() throws {
        let database = try SQLiteDatabase(path: path)
        #expect(try database.writerSynchronousLevel() == SQLiteDatabase.fullSynchronous)
    }

    /// In a process of its own: SQLite takes its process-wide settings only before the first
    /// connection opens, and other tests here open connections of their own.
    @Test func connectionsTakeNoMutexOfTheirOwnAndSQLiteCountsNoMemory() async {
        await #expect(processExitsWith: .success) {
            let folder = try TemporaryFolder()
            let database = try SQLiteDatabase(path: folder.url.appendingPathComponent("shop.sqlite").path)
            guard SQLiteDatabase.processSettings == 0, !database.connectionsTakeMutexes(),
                  SQLiteDatabase.memoryCounted() == 0 else { exit(1) }
        }
    }

    @Test func anEmptyFileIsRefusedAndLeftAsItWas() throws {
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        #expect(throws: StorageError.self) { try SQLiteDatabase(path: path) }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAndLeftAsItWas() throws {
        let notes = Data("shopping list: kiwi, mango\n".utf8)
        _ = FileManager.default.createFile(atPath: path, contents: notes)
        #expect(throws: StorageError.self) { try SQLiteDatabase(path: path) }
        #expect(FileManager.default.contents(atPath: path) == notes)
    }

    @Test func aMissingFileIsANewShop() async throws {
        let store = SQLiteJuiceBarStore(database: try SQLiteDatabase(path: path))
        #expect(try await store.stock().stock["banana"] == 10)
    }

    @Test func writesAfterTheFileIsDeletedFailLoudly() async throws {
        let store = SQLiteJuiceBarStore(database: try SQLiteDatabase(path: path))
        _ = try await store.order("bananaJuice", actor: "test")
        try FileManager.default.removeItem(atPath: path)
        await #expect(throws: StorageError.self) { try await store.order("bananaJuice", actor: "test") }
    }

    @Test func writesAfterTheFileIsReplacedFailLoudly() async throws {
        let store = SQLiteJuiceBarStore(database: try SQLiteDatabase(path: path))
        let other = folder.url.appendingPathComponent("other.sqlite").path
        _ = try SQLiteDatabase(path: other)
        #expect(rename(other, path) == 0)
        await #expect(throws: StorageError.self) { try await store.order("bananaJuice", actor: "test") }
    }

    @Test func theQueuesReadsEachUseAnIndex() throws {
        let database = try SQLiteDatabase(path: path)
        let plans = try database.pool.read { db in
            try [SQLiteJuiceBarStore.activeOrders, SQLiteJuiceBarStore.averageReady, SQLiteJuiceBarStore.lastNumber,
                 SQLiteJuiceBarStore.memberOrders].map { sql in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: Self.ones(for: sql))
                    .map { $0["detail"] as String }.joined(separator: "; ")
            }
        }
        #expect(plans[0].contains("juice_order_active"), "\(plans[0])")
        #expect(plans[1].contains("juice_order_pickup_ready"), "\(plans[1])")
        #expect(plans[2].contains("SEARCH order_day USING PRIMARY KEY"), "\(plans[2])")
        #expect(plans[3].contains("juice_order_account_id"), "\(plans[3])")
    }

    /// A shop file at `path` as the build with `migration` as its last left it, holding `rows`.
    private func makeOldShop(upTo migration: String, rows: String) async throws {
        try await TestShop.makeOldSQLiteShop(at: path, upTo: migration, rows: rows)
    }

    /// A 1 for each `?` of `sql`: a statement is explained only with all its arguments.
    private static func ones(for sql: String) -> StatementArguments {
        StatementArguments(Array(repeating: 1, count: sql.count { $0 == "?" }))
    }

    /// Noon of 2026-11-18 in UTC: that day in any zone within eleven hours of it.
    private static let noonOfTheOldDay = Date(timeIntervalSince1970: 1_795_003_200)

    @Test func anOldShopsDaysGoOnFromTheirLastNumberWithoutTheIndexOfNumbers() async throws {
        try await makeOldShop(upTo: "juiceBar.v6.checksWithoutLists", rows: """
            INSERT INTO juiceOrder (id, juiceId, time, actor, number, day, status, statusTime, pickup) VALUES
                (1, 'bananaJuice', 1795000000, 'old', 7, '2026-11-17', 'pickedUp', 1795000000, 0),
                (2, 'bananaJuice', 1795000000, 'old', 1, '2026-11-18', 'pickedUp', 1795000000, 0),
                (3, 'kiwiJuice', 1795000000, 'old', 2, '2026-11-18', 'received', 1795000000, 1);
            """)
        let database = try SQLiteDatabase(path: path)
        let store = SQLiteJuiceBarStore(database: database, now: { Self.noonOfTheOldDay })
        #expect(try await store.order("mangoJuice", actor: "new", pickup: true).order.number == 3)
        #expect(try await store.order("bananaJuice", actor: "new").order.number == 4)
        let (days, indexes) = try await database.pool.read { db in
            (try Row.fetchAll(db, sql: "SELECT day, last_number FROM order_day ORDER BY day").map { "\($0[0] as String) \($0[1] as Int)" },
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_schema WHERE name = 'juiceOrder_dayNumber'"))
        }
        #expect(days == ["2026-11-17 7", "2026-11-18 4"])
        #expect(indexes == 0)
    }

    /// The writer keeps the menu between batches; a juice added by this process or by another
    /// one on the same file (the CLI) can be ordered in the very next batch, and so can a fruit's
    /// new reorder level be read back.
    @Test func aMenuChangedHereOrByAnotherProcessIsOrderedFromAtOnce() async throws {
        let here = SQLiteJuiceBarStore(database: try SQLiteDatabase(path: path))
        let elsewhere = SQLiteJuiceBarStore(database: try SQLiteDatabase(path: path))
        _ = try await here.order("bananaJuice", actor: "t")
        let grape = Fruit(id: "grape", name: .init(ko: "포도", en: "Grape"), emoji: "🍇")
        _ = try await here.addFruit(grape, count: 9, actor: "t")
        _ = try await here.addJuice(Juice(id: "grapeJuice", name: .init(ko: "포도쥬스", en: "Grape Juice"),
                                          recipe: [Ingredient(fruit: "grape", amount: 3)]))
        #expect(try await here.order("grapeJuice", actor: "t").stock.stock["grape"] == 6)

        _ = try await elsewhere.addJuice(Juice(id: "bananaGrapeJuice", name: .init(ko: "바나나포도쥬스", en: "Banana Grape"),
                                               recipe: [Ingredient(fruit: "banana", amount: 1), Ingredient(fruit: "grape", amount: 1)]))
        #expect(try await here.order("bananaGrapeJuice", actor: "t").stock.stock["grape"] == 5)
        _ = try await elsewhere.commit(.setLevel("grape", 5), actor: "t", key: nil)
        let level = try await here.commit(.setLevel("kiwi", 2), actor: "t", key: nil)
        #expect(level.menu.fruits.first { $0.id == "grape" }?.level == 5)
    }

    /// Keys past their lifetime are deleted by a keyed batch's scan, at most one every
    /// `ExpiredKeySweep.interval`; none is indexed by its time any more.
    @Test func keysPastTheirLifetimeAreSweptEveryFewMinutes() async throws {
        let database = try SQLiteDatabase(path: path)
        let store = SQLiteJuiceBarStore(database: database)
        _ = try await store.setStock("banana", to: 100, actor: "t")
        func order(key: String, at time: Date) async throws {
            let write = IdempotentWrite(scope: "guest:a", key: key, request: "POST /api/orders\n{}", time: time) {
                (_: Result<OrderReceipt, any Error>) in StoredAnswer(status: 201, contentType: "text/plain", body: [1])
            }
            _ = try await store.order("bananaJuice", actor: "g", key: write)
        }
        func keys() async throws -> [String] {
            try await database.pool.read { db in try String.fetchAll(db, sql: "SELECT key FROM idempotent_request ORDER BY key") }
        }
        let start = Self.noonOfTheOldDay
        try await order(key: "first", at: start)
        try await order(key: "second", at: start + 100)
        let dayLater = start + IdempotencyStoreLimits.lifetime + 1
        try await order(key: "a", at: dayLater)
        #expect(try await keys() == ["a", "second"], "the first key swept, the second still alive")
        try await order(key: "b", at: dayLater + 200)
        #expect(try await keys() == ["a", "b", "second"], "the second expired, but the last sweep was 200 s ago")
        try await order(key: "c", at: dayLater + ExpiredKeySweep.interval)
        #expect(try await keys() == ["a", "b", "c"])
        #expect(database.keys.count == 3, "the swept keys are forgotten in memory too")
        let indexes = try await database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_schema WHERE tbl_name = 'idempotent_request' AND type = 'index' AND sql IS NOT NULL")
        }
        #expect(indexes == 0)
    }

    /// The sweep leaves the newest row, even past its lifetime, so a new key never takes an id an
    /// earlier key had: another process's index could take it for a row it knows.
    @Test func theSweepLeavesTheNewestRowSoIDsOnlyGrow() async throws {
        let database = try SQLiteDatabase(path: path)
        let store = SQLiteJuiceBarStore(database: database)
        _ = try await store.setStock("banana", to: 100, actor: "t")
        func order(key: String, at time: Date, keeping: Bool) async throws {
            let write = IdempotentWrite(scope: "guest:a", key: key, request: "POST /api/orders\n{}", time: time) {
                (_: Result<OrderReceipt, any Error>) in keeping ? StoredAnswer(status: 201, contentType: "text/plain", body: [1]) : nil
            }
            _ = try await store.order("bananaJuice", actor: "g", key: write)
        }
        func rows() async throws -> [String] {
            try await database.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT id, key FROM idempotent_request ORDER BY id").map { "\($0[0] as Int) \($0[1] as String)" }
            }
        }
        try await order(key: "old", at: Self.noonOfTheOldDay, keeping: true)
        let dayLater = Self.noonOfTheOldDay + IdempotencyStoreLimits.lifetime + 1
        try await order(key: "unkept", at: dayLater, keeping: false)
        #expect(try await rows() == ["1 old"], "swept, but the newest row stays")
        try await order(key: "new", at: dayLater + 1, keeping: true)
        #expect(try await rows() == ["1 old", "2 new"])
    }

    /// A key is found in memory, by its row's id; the rows another process kept since are read
    /// past the last id this one knows, and learned.
    @Test func keysKeptByAnotherProcessAreFoundAndLearned() async throws {
        let here = try SQLiteDatabase(path: path)
        let elsewhere = try SQLiteDatabase(path: path)
        let (hereKeys, elsewhereKeys) = (SQLiteIdempotencyStore(database: here), SQLiteIdempotencyStore(database: elsewhere))
        let answer = StoredAnswer(status: 201, contentType: "text/plain", body: Array("kept".utf8))
        func write(_ key: String) -> IdempotentWrite {
            IdempotentWrite(scope: "guest:a", key: key, request: "POST /api/orders\n{}", time: Self.noonOfTheOldDay) {
                (_: Result<OrderReceipt, any Error>) in answer
            }
        }
        #expect(try await hereKeys.keep(answer, for: write("a")) == nil)
        #expect(try await elsewhereKeys.keep(answer, for: write("b")) == nil)
        #expect(here.keys.count == 1)
        #expect(try await hereKeys.keep(answer, for: write("b")) == .answered(answer), "claimed under the write lock")
        #expect(here.keys.count == 2, "b learned from the rows past a")
        #expect(try await elsewhereKeys.find(scope: "guest:a", key: "a", request: "POST /api/orders\n{}", at: Self.noonOfTheOldDay)
                == .answered(answer), "a read finds what another process kept")
        #expect(elsewhere.keys.count == 2)
        let ids = try await here.pool.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM idempotent_request ORDER BY id") }
        #expect(ids == [1, 2], "each key one row, in the order kept")
    }

    /// The rows are the truth: a key whose row was deleted behind the index (by an older server
    /// letting it go) is free again, and its newest row is the one that counts.
    @Test func aKeyWhoseRowWasDeletedBehindTheIndexIsFree() async throws {
        let database = try SQLiteDatabase(path: path)
        let store = SQLiteJuiceBarStore(database: database, now: { Self.noonOfTheOldDay })
        func write(_ key: String) -> IdempotentWrite {
            IdempotentWrite(scope: "guest:a", key: key, request: "POST /api/orders\n{}", time: Self.noonOfTheOldDay) {
                (result: Result<OrderReceipt, any Error>) in
                (try? result.get()).map { StoredAnswer(status: 201, contentType: "text/plain", body: Array("\($0.order.id)".utf8)) }
            }
        }
        let first = try await store.order("bananaJuice", actor: "g", key: write("k"))
        _ = try await store.order("bananaJuice", actor: "g", key: write("newer"))
        try await database.pool.write { db in try db.execute(sql: "DELETE FROM idempotent_request WHERE key = 'k'") }
        let second = try await store.order("bananaJuice", actor: "g", key: write("k"))
        #expect(second.order.id != first.order.id)
        do {
            _ = try await store.order("bananaJuice", actor: "g", key: write("k"))
            Issue.record("the key is held again")
        } catch let used as KeyAlreadyUsed {
            #expect(used.claim == .answered(StoredAnswer(status: 201, contentType: "text/plain", body: Array("\(second.order.id)".utf8))))
        }
    }

    /// A key is read by its row's id, and what the index has not seen by the ids past it: both
    /// through the table's own key, never a scan.
    @Test func keysAreReadThroughTheirIDs() throws {
        let database = try SQLiteDatabase(path: path)
        let plans = try database.pool.read { db in
            try [KeysInTransaction.rowOfID, KeysInTransaction.rowsPast].map { sql in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: Self.ones(for: sql))
                    .map { $0["detail"] as String }.joined(separator: "; ")
            }
        }
        #expect(plans[0].contains("USING INTEGER PRIMARY KEY (rowid=?)"), "\(plans[0])")
        #expect(plans[1].contains("USING INTEGER PRIMARY KEY (rowid>?)"), "\(plans[1])")
    }

    /// An old shop's kept answers still answer their keys, and new keys go on after them.
    @Test func anOldShopsKeptAnswersStillAnswer() async throws {
        try await makeOldShop(upTo: "idempotency.v2.sweptByScan", rows: """
            INSERT INTO idempotentRequest (scope, key, request, created, status, contentType, body) VALUES
                ('guest:a', 'late', 'POST /x', 1795000200, 201, 'text/plain', X'6c617465'),
                ('guest:a', 'early', 'POST /x', 1795000100, 409, 'text/plain', X'');
            """)
        let database = try SQLiteDatabase(path: path)
        let keys = SQLiteIdempotencyStore(database: database)
        #expect(try await keys.find(scope: "guest:a", key: "late", request: RequestFingerprint.of(keptText: "POST /x"),
                                    at: Self.noonOfTheOldDay)
                == .answered(StoredAnswer(status: 201, contentType: "text/plain", body: Array("late".utf8))))
        let answer = StoredAnswer(status: 201, contentType: "text/plain", body: [])
        let write = IdempotentWrite(scope: "guest:a", key: "new", request: "POST /x", time: Self.noonOfTheOldDay) {
            (_: Result<OrderReceipt, any Error>) in answer
        }
        #expect(try await keys.keep(answer, for: write) == nil)
        let rows = try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, key FROM idempotent_request ORDER BY id").map { "\($0[0] as Int) \($0[1] as String)" }
        }
        #expect(rows == ["1 early", "2 late", "3 new"], "copied in the order they were made")
    }

    @Test func cancelledOrdersAreFoundThroughTheIndexOfCancelsAlone() throws {
        let database = try SQLiteDatabase(path: path)
        let plan = try database.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + SQLiteDayReportStore.cancelledAmong, arguments: ["[1]"])
                .map { $0["detail"] as String }.joined(separator: "; ")
        }
        #expect(plan.contains("stock_ledger USING INDEX stock_ledger_cancelled_order"), "\(plan)")
    }

    /// SQLite checks `x IN (…)` of more than two constants through a temporary b-tree it builds
    /// for every statement (`OpenEphemeral`); no table's CHECKs or partial indexes make a write
    /// build one, nor does moving an order along the queue.
    @Test func noWriteBuildsATemporaryBTreeToCheckItsRow() throws {
        let database = try SQLiteDatabase(path: path)
        let programs = try database.pool.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%'")
            let writes = tables.map { "INSERT INTO \($0) DEFAULT VALUES" }
                + ["UPDATE juice_order SET status = ?, status_time = ?, ready_time = ? WHERE id = ?"]
            return try writes.map { sql in
                (sql, try Row.fetchAll(db, sql: "EXPLAIN " + sql, arguments: Self.ones(for: sql)).map { $0["opcode"] as String })
            }
        }
        #expect(programs.count > 20)
        for (sql, opcodes) in programs {
            #expect(!opcodes.contains("OpenEphemeral"), "\(sql)")
        }
    }

    /// Copying the tables to check by equality keeps every row and id, and still refuses a
    /// status, cause or kind that is none of the list.
    @Test func tablesCopiedToCheckByEqualityKeepTheirRowsAndChecks() async throws {
        try await makeOldShop(upTo: "juiceBar.v5.plainRowIDs", rows: """
            INSERT INTO juiceOrder (id, juiceId, time, actor, number, day, status, statusTime, pickup)
                VALUES (41, 'bananaJuice', 1795000000, 'old', 1, '2026-11-18', 'cancelled', 1795000000, 1);
            INSERT INTO stockLedger (id, time, fruitId, delta, countAfter, cause, juiceId, orderId, actor)
                VALUES (90, 1795000000, 'banana', -2, 8, 'order', 'bananaJuice', 41, 'old'),
                       (91, 1795000060, 'banana', 2, 10, 'cancel', 'bananaJuice', 41, 'old');
            INSERT INTO vendingMoneyLedger (id, time, kind, amount, balanceAfter, actor)
                VALUES (7, 1795000000, 'insert', 1000, 1000, 'old');
            """)
        let database = try SQLiteDatabase(path: path)
        #expect(try await SQLiteJuiceBarStore(database: database).order(id: 41)?.status == .cancelled)
        #expect(try await SQLiteDayReportStore(database: database).ordersWithCancelLines(among: [41]) == [41])
        try await database.pool.write { db in
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM stock_ledger WHERE actor = 'old' ORDER BY id") == [90, 91])
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM vending_money_ledger WHERE actor = 'old'") == [7])
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE juice_order SET status = 'lost' WHERE id = 41") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE stock_ledger SET cause = 'gift' WHERE id = 90") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE vending_money_ledger SET kind = 'tip' WHERE id = 7") }
            try db.execute(sql: "UPDATE juice_order SET status = 'ready' WHERE id = 41")
        }
    }

    @Test func ordersMadeBeforeTheQueueArePickedUpAndNumberedByDay() async throws {
        let old = try DatabasePool(path: path)
        try SQLiteSchema.migrator.migrate(old, upTo: "juiceBar.v2.memberOrders")
        let day1 = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 in UTC
        try await old.write { db in
            for (offset, juice) in [(0.0, "kiwiJuice"), (60, "bananaJuice"), (86_400, "mangoJuice")] {
                try db.execute(sql: "INSERT INTO juiceOrder (juiceId, time, actor) VALUES (?, ?, 'old')",
                               arguments: [juice, (day1 + offset).timeIntervalSince1970])
            }
        }
        try old.close()
        let store = SQLiteJuiceBarStore(database: try SQLiteDatabase(path: path))
        let orders = try await store.orders(limit: nil).reversed().map { [$0.day, String($0.number), $0.status.rawValue] }
        #expect(orders == [["2026-11-18", "1", "pickedUp"], ["2026-11-18", "2", "pickedUp"], ["2026-11-19", "1", "pickedUp"]])
        let queued = try await store.order("kiwiJuice", actor: "t", pickup: true).order
        _ = try await store.cancel(order: queued.id, by: .staff, actor: "t")
        #expect(try await store.ledger(limit: 1).first?.cause == .cancel, "the copied ledger takes cancels")
    }

    /// Orders and ledger lines take the id after the largest, not AUTOINCREMENT's counter, which an
    /// order rewrote once per insert: a shop made before keeps its ids, and the next follow them.
    @Test func ordersAndLedgerLinesKeepTheirIdsAndNoLongerWriteACounter() async throws {
        try await makeOldShop(upTo: "accounts.v3.identities", rows: """
            INSERT INTO juiceOrder (id, juiceId, time, actor, number, day, status, statusTime, pickup)
                VALUES (41, 'bananaJuice', 1795000000, 'old', 1, '2026-11-18', 'pickedUp', 1795000000, 0);
            INSERT INTO stockLedger (id, time, fruitId, delta, countAfter, cause, juiceId, orderId, actor)
                VALUES (90, 1795000000, 'banana', -2, 8, 'order', 'bananaJuice', 41, 'old');
            """)
        let database = try SQLiteDatabase(path: path)
        let store = SQLiteJuiceBarStore(database: database)
        #expect(try await store.order(id: 41)?.actor == "old")
        let receipt = try await store.order("kiwiJuice", actor: "new")
        #expect(receipt.order.id == 42)
        #expect(try await store.ledger(limit: 1).map(\.id) == [91])
        let counters = try await database.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_sequence WHERE name IN ('juice_order', 'stock_ledger')")
        }
        #expect(counters.isEmpty, "\(counters)")
    }

    /// What SQLite itself runs (its statement trace), not what the store asks: a batch of 40
    /// two-fruit orders is two inserts of orders (32 and 8 rows), three of ledger lines (32, 32 and
    /// 16) and the day's last number, under ids that follow the file's last.
    @Test func aBatchInsertsItsOrdersAndLedgerLinesManyRowsToAStatement() async throws {
        let database = try SQLiteDatabase(path: path)
        let time = Date()
        let batch = (0..<40).map { _ in
            PendingWrite<StockWrite>(write: .order(.cup(of: "mangoKiwiJuice")), actor: "test", time: time)
        }
        let stock = Stock(Dictionary(uniqueKeysWithValues: Menu.seed.fruits.map { ($0.id, 1_000) }))
        let plans = DecidedStockBatch(batch, on: JuiceBarBook(menu: .seed, stock: stock)).plans
        let inserts = Mutex<[String]>([])
        let (before, stored) = try await database.pool.writeWithoutTransaction { db in
            let before = try db.lastID(of: "stock_ledger")
            db.trace { event in
                guard case .statement(let statement) = event, statement.sql.hasPrefix("INSERT") else { return }
                inserts.withLock { $0.append(statement.sql) }
            }
            defer { db.trace(options: [], nil) }
            var stored: StoredStockPlans?
            try db.inTransaction {
                stored = try SQLiteJuiceBarStore.store(plans, in: db)
                return .commit
            }
            return (before, stored!)
        }
        let rows = inserts.withLock { $0 }.map { sql in
            "\(sql.split(separator: " ")[2]) \(sql.components(separatedBy: "), (").count)"
        }
        #expect(rows == ["juice_order 32", "juice_order 8", "stock_ledger 32", "stock_ledger 32", "stock_ledger 16", "order_day 1"])
        #expect(stored.plans.flatMap(\.ledger).map(\.id) == Array(before + 1...before + 80))
        #expect(stored.version == before + 80)
        let ledgerOrders = try await database.pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT order_id FROM stock_ledger WHERE id > ? ORDER BY id", arguments: [before])
        }
        #expect(ledgerOrders == stored.plans.flatMap { plan in plan.ledger.map { _ in plan.order!.id } })
    }

    @Test func aFullDiskIsStorageFullAndLeavesNothingPartial() async throws {
        let database = try SQLiteDatabase(path: path)
        let store = SQLiteJuiceBarStore(database: database)
        _ = try await store.setStock("banana", to: 1_000_000, actor: "test")
        // The file may not grow by a page more: what a full disk looks like to SQLite.
        try await database.pool.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        var made = 0
        var failure: (any Error)?
        while failure == nil && made < 10_000 {
            do {
                _ = try await store.order("bananaJuice", actor: "test")
                made += 1
            } catch {
                failure = error
            }
        }
        #expect(failure as? StorageError == .full, "\(String(describing: failure))")
        #expect(try await store.stock().stock["banana"] == 1_000_000 - 2 * made)
        #expect(try await store.orders(limit: nil).count == made)
    }

    /// Shops made before categories were written as plain fields hold Swift's enum coding,
    /// `{"milk":{"_0":{…}}}`; opening one rewrites them, and the machine reads as before.
    @Test func definitionsInSwiftsEnumCodingAreRewrittenAsPlainFields() async throws {
        let queue = try DatabaseQueue(path: path)
        try SQLiteSchema.migrator.migrate(queue, upTo: "vending.v1")
        try await queue.write { db in
            for row in try Row.fetchAll(db, sql: "SELECT id, definition FROM vendingProduct") {
                var definition = try JSONSerialization.jsonObject(with: Data((row["definition"] as String).utf8)) as! [String: Any]
                var fields = definition["category"] as! [String: Any]
                let kind = fields.removeValue(forKey: "kind") as! String
                definition["category"] = [kind: ["_0": fields]]
                try db.execute(sql: "UPDATE vendingProduct SET definition = ? WHERE id = ?", arguments: [
                    String(decoding: try JSONSerialization.data(withJSONObject: definition), as: UTF8.self), row["id"] as String])
            }
        }
        #expect(try await queue.read { db in try String.fetchOne(db, sql: "SELECT definition FROM vendingProduct") }?
            .contains(#""_0""#) == true)
        try queue.close()

        let shop = try await ShopDatabase.open(path)
        #expect(try await shop.vending.state(at: Date()).products.map(\.product) == Catalog.products)
        await shop.close()
        let stored = try DatabaseQueue(path: path)
        let definitions = try await stored.read { db in try String.fetchAll(db, sql: "SELECT definition FROM vending_product") }
        #expect(definitions.count == Catalog.products.count)
        #expect(definitions.allSatisfy { $0.contains(#""kind":"#) && !$0.contains(#""_0""#) })
    }
}
