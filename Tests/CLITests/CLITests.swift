import Foundation
import Testing

@Suite(.serialized) struct CLITests {
    let cli = CLI()
    let newShop = ["strawberry": 10, "banana": 10, "pineapple": 10, "kiwi": 10, "mango": 10]

    @Test func aNewShopsStockAsJSON() throws {
        defer { cli.removeFiles() }
        #expect(try cli.stock() == newShop)
    }

    @Test func ordersUntilTheFruitRunsOutThenExitsOneNamingTheShortage() throws {
        defer { cli.removeFiles() }
        for _ in 0..<3 { #expect(try cli("order", "mangoJuice").status == 0) }
        let refused = try cli("order", "mangoJuice")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("망고쥬스 재료가 모자라요. 망고 3개 필요 · 지금 1개"))
        #expect(try cli.stock()["mango"] == 1)
    }

    @Test func theMenuCarriesIdsAndMakeableCounts() throws {
        defer { cli.removeFiles() }
        struct Fruit: Decodable { let id: String }
        struct Item: Decodable { let id: String; let makeable: Int }
        struct Menu: Decodable { let fruits: [Fruit]; let juices: [Item] }
        let items = try JSONDecoder().decode(Menu.self, from: Data(cli("menu", "--json").stdout.utf8)).juices
        #expect(items.count == 7)
        #expect(items.first { $0.id == "strawberryJuice" }?.makeable == 0)
        #expect(items.first { $0.id == "mangoKiwiJuice" }?.makeable == 5)
        #expect(try cli("menu").stdout.contains("딸바쥬스"))
    }

    /// Selling from the CLI: cups with options, paid in cash with change; a choice written wrong
    /// exits 2, cash short exits 1, and neither sells anything.
    @Test func sellsCupsWithOptionsPaidInCash() throws {
        defer { cli.removeFiles() }
        let sold = try cli("order", "mangoKiwiJuice", "--quantity", "2", "--option", "size=large", "--option", "ice=less",
                           "--pay", "cash", "--received", "20000")
        #expect(sold.status == 0 && sold.stdout.contains("합계 15,000원 · cash 20,000원, 거스름돈 5,000원"), "\(sold.stdout)")
        #expect(try cli.stock()["mango"] == 4 && cli.stock()["kiwi"] == 6)
        let badChoice = try cli("order", "kiwiJuice", "--option", "large")
        #expect(badChoice.status == 2 && badChoice.stderr.contains("group=option"))
        let short = try cli("order", "kiwiJuice", "--pay", "cash", "--received", "1000")
        #expect(short.status == 1 && short.stderr.contains("1,000원"))
        let unknown = try cli("order", "kiwiJuice", "--option", "size=huge")
        #expect(unknown.status == 2)
        #expect(try cli.stock()["kiwi"] == 6)
    }

    /// 메뉴 관리 from the CLI: a price set, a juice 품절 and back, one retired; bad input exits 2.
    @Test func menuPriceSoldOutAndRetire() throws {
        defer { cli.removeFiles() }
        #expect(try cli("menu").stdout.contains("딸바쥬스 (strawberryBananaJuice) 6,000원"))
        #expect(try cli("menu", "price", "kiwiJuice", "5200").stdout == "키위쥬스 5,200원\n")
        #expect(try cli("menu", "sold-out", "kiwiJuice").status == 0)
        let refused = try cli("order", "kiwiJuice")
        #expect(refused.status == 1 && refused.stderr.contains("품절"))
        #expect(try cli("menu", "sold-out", "kiwiJuice", "--back").stdout == "키위쥬스 on sale\n")
        #expect(try cli("order", "kiwiJuice").status == 0)
        #expect(try cli("menu", "retire", "mangoJuice").status == 0)
        #expect(!(try cli("menu").stdout.contains("mangoJuice")))
        for bad in [["price", "kiwiJuice", "cheap"], ["price", "kiwiJuice", "1000001"], ["price", "lemonJuice", "100"]] {
            let result = try cli("menu", bad[0], bad[1], bad[2])
            #expect(result.status == 2, "\(bad)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(bad): one line")
        }
        #expect(try cli("menu").stdout.contains("키위쥬스 (kiwiJuice) 5,200원"), "nothing changed by the refusals")
    }

    @Test func stockSetAndAddChangeTheCountAndTheLedger() throws {
        defer { cli.removeFiles() }
        #expect(try cli("stock", "set", "kiwi", "0").status == 0)
        #expect(try cli("stock", "add", "kiwi", "25").status == 0)
        #expect(try cli.stock()["kiwi"] == 25)
        struct Entry: Decodable { let fruit: String; let delta: Int; let cause: String }
        let history = try JSONDecoder().decode([Entry].self, from: Data(cli("history", "--json", "--limit", "2").stdout.utf8))
        #expect(history.map(\.cause) == ["delivery", "edit"])
        #expect(history.map(\.delta) == [25, -10])
    }

    @Test func ordersAreListedNewestFirst() throws {
        defer { cli.removeFiles() }
        try cli("order", "bananaJuice")
        try cli("order", "kiwiJuice")
        struct Listed: Decodable { let id: Int; let juice: String }
        let all = try JSONDecoder().decode([Listed].self, from: Data(cli("orders", "--json").stdout.utf8))
        #expect(all.map(\.juice) == ["kiwiJuice", "bananaJuice"])
        let last = try JSONDecoder().decode([Listed].self, from: Data(cli("orders", "--json", "--limit", "1").stdout.utf8))
        #expect(last.map(\.juice) == ["kiwiJuice"])
    }

    @Test(arguments: [
        ["order", "lemonJuice"],
        ["stock", "set", "grape", "5"],
        ["stock", "set", "kiwi", "-1"],
        ["stock", "set", "kiwi", "1000001"],
        ["stock", "set", "kiwi", "ten"],
        ["stock", "add", "kiwi", "999991"],
        ["stock", "add", "banana", "1.5"],
        ["orders", "--limit", "0"],
        ["history", "--limit", "x"],
    ])
    func invalidInputIsRefusedInOneLineAndChangesNothing(arguments: [String]) throws {
        defer { cli.removeFiles() }
        let historyBefore = try cli("history", "--json").stdout
        let result = try cli.finish(cli.start(arguments))
        #expect(result.status != 0 && result.status != 1)
        let reason = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!reason.isEmpty && !reason.contains("\n"), "reason: \(reason)")
        #expect(try cli.stock() == newShop)
        #expect(try cli("history", "--json").stdout == historyBefore)
    }

    @Test func theDatabaseComesFromTheEnvironmentWhenNotGiven() throws {
        defer { cli.removeFiles() }
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["stock", "set", "kiwi", "7"]
        process.environment = ProcessInfo.processInfo.environment.merging(["JUICEMAKER_DATABASE": cli.database]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try cli.stock()["kiwi"] == 7)
    }

    /// The acceptance check: 30 processes ordering at once on a new shop.
    @Test func thirtyProcessesOrderingMangoJuiceAtOnceSellExactlyThree() throws {
        defer { cli.removeFiles() }
        let running = try (0..<30).map { _ in try cli.start(["order", "mangoJuice"]) }
        let results = try running.map(cli.finish)
        #expect(results.filter { $0.status == 0 }.count == 3)
        #expect(results.filter { $0.status == 1 }.count == 27)
        #expect(results.allSatisfy { $0.status == 0 || $0.stderr.contains("망고 3개 필요") },
                "\(results.map(\.stderr).filter { !$0.contains("망고 3개 필요") })")
        #expect(try cli.stock()["mango"] == 1)
    }
}
