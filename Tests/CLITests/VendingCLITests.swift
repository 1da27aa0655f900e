import Foundation
import Testing

@Suite(.serialized) struct VendingCLITests {
    let cli = CLI()

    struct Money: Decodable { let balance: Int; let inserted: Int; let spent: Int; let returned: Int }
    /// The machine as `GET /api/vending` answers it.
    struct State: Decodable {
        struct Product: Decodable { let id: String; let stock: Int }
        let balance: Int
        let products: [Product]
        let totals: Money
    }

    func state() throws -> State {
        try JSONDecoder().decode(State.self, from: Data(cli("vending", "status", "--json").stdout.utf8))
    }

    @Test func insertBuyAndChange() throws {
        defer { cli.removeFiles() }
        #expect(try cli("vending", "insert", "5000").status == 0)
        let bought = try cli("vending", "buy", "cola")
        #expect(bought.status == 0)
        #expect(bought.stdout.contains("콜라"))
        let change = try cli("vending", "change", "--json")
        struct Change: Decodable { let returned: Int }
        #expect(try JSONDecoder().decode(Change.self, from: Data(change.stdout.utf8)).returned == 3_000)
        let money = try state().totals
        #expect(money.inserted == money.spent + money.returned + money.balance)
        #expect(try state().products.first { $0.id == "cola" }?.stock == 4)
    }

    @Test func refusalsExitOneAndBadInputExitsTwo() throws {
        defer { cli.removeFiles() }
        let poor = try cli("vending", "buy", "cola")
        #expect(poor.status == 1)
        #expect(poor.stderr.contains("잔액이 모자라요"))
        for arguments in [["vending", "insert", "300"], ["vending", "insert", "abc"], ["vending", "buy", "water"],
                          ["vending", "restock", "cola", "0"], ["vending", "restock", "cola", "2", "--manufactured", "2026-02-30"]] {
            let result = try cli.finish(cli.start(arguments))
            #expect(result.status == 2, "\(arguments)")
            #expect(!result.stderr.trimmingCharacters(in: .whitespacesAndNewlines).contains("\n"))
        }
        #expect(try state().totals.inserted == 0)
        #expect(try state().products.allSatisfy { $0.stock == 5 })
    }

    @Test func restockWithAnOldDateShowsAsExpired() throws {
        defer { cli.removeFiles() }
        #expect(try cli("vending", "restock", "cider", "2", "--manufactured", "2020-01-01").status == 0)
        struct Item: Decodable { let product: String }
        let expired = try JSONDecoder().decode([Item].self, from: Data(cli("vending", "expired", "--json").stdout.utf8))
        #expect(expired.map(\.product) == ["cider", "cider"])
        #expect(try state().products.first { $0.id == "cider" }?.stock == 5)
    }
}
