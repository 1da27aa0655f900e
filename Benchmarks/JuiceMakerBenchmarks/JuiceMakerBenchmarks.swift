import Benchmark
import Foundation
import JuiceBar
import Storage
import VendingMachine

/// A fresh shop on a temporary SQLite file (synchronous=FULL, as in production).
func temporaryDatabase() throws -> SQLiteDatabase {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juicemaker-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return try SQLiteDatabase(path: folder.appendingPathComponent("bench.sqlite").path)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(3))

    // MARK: Domain: the rules themselves, no I/O.

    let menu = Menu.seed
    let fullStock = Stock(Dictionary(uniqueKeysWithValues: menu.fruits.map { ($0.id, 1_000_000) }))

    Benchmark("Stock.deduct (strawberryBananaJuice)") { benchmark in
        let juice = menu.juice("strawberryBananaJuice")!
        for _ in benchmark.scaledIterations {
            var stock = fullStock
            try stock.deduct(juice)
            blackHole(stock)
        }
    }

    Benchmark("Stock.makeableCount for the whole menu") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(menu.juices.map { fullStock.makeableCount(of: $0) })
        }
    }

    Benchmark("Change(amount:) 48,700 won") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Change(amount: 48_700))
        }
    }

    // MARK: Storage: one SQLite file, every write group-committed with a sync.

    Benchmark("SQLite order, one at a time", configuration: .init(metrics: [.wallClock, .throughput])) { benchmark in
        let store = SQLiteJuiceBarStore(database: try temporaryDatabase())
        for fruit in menu.fruits { _ = try await store.setStock(fruit.id, to: 1_000_000, actor: "bench") }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await store.order("bananaJuice", actor: "bench"))
        }
    }

    Benchmark("SQLite orders, 64 at once", configuration: .init(metrics: [.wallClock, .throughput])) { benchmark in
        let store = SQLiteJuiceBarStore(database: try temporaryDatabase())
        for fruit in menu.fruits { _ = try await store.setStock(fruit.id, to: 1_000_000, actor: "bench") }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<64 { group.addTask { _ = try await store.order("kiwiJuice", actor: "bench") } }
                try await group.waitForAll()
            }
        }
    }

    Benchmark("SQLite vending purchase", configuration: .init(metrics: [.wallClock, .throughput])) { benchmark in
        let store = SQLiteVendingStore(database: try temporaryDatabase())
        let now = Date()
        _ = try await store.restock("georgia", count: 1_000, manufactured: now, actor: "bench", at: now)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            _ = try await store.insert(5_000, actor: "bench", at: now)
            blackHole(try await store.purchase("georgia", actor: "bench", at: now))
            _ = try await store.returnChange(actor: "bench", at: now)
        }
    }
}
