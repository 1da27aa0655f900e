import Foundation
import ShopBasics
import Testing
import VendingMachine

@Suite struct MoneyTests {
    @Test(arguments: [100, 500, 1_000, 5_000, 10_000])
    func takesTheFiveDenominations(amount: Int) throws {
        var money = MoneyTotals()
        try money.insert(amount)
        #expect(money.balance == amount && money.inserted == amount && money.isConserved)
    }

    @Test(arguments: [0, 50, 200, 2_000, -1_000, 50_000])
    func refusesAnythingElse(amount: Int) {
        var money = MoneyTotals()
        #expect(throws: VendingError.invalidDenomination(amount)) { try money.insert(amount) }
        #expect(money == MoneyTotals())
    }

    @Test func theBalanceIsCappedAtFiftyThousand() throws {
        var money = MoneyTotals()
        for _ in 0..<5 { try money.insert(10_000) }
        #expect(throws: VendingError.balanceCapExceeded(balance: 50_000, amount: 100)) { try money.insert(100) }
        #expect(money.balance == 50_000 && money.isConserved)
    }

    @Test func spendingMoreThanTheBalanceIsRefused() throws {
        var money = MoneyTotals()
        try money.insert(1_000)
        #expect(throws: VendingError.insufficientBalance(price: 1_300, balance: 1_000)) { try money.spend(1_300) }
        try money.spend(700)
        #expect(money.balance == 300 && money.spent == 700 && money.isConserved)
    }

    @Test func changeComesInTheFewestBillsAndCoins() throws {
        #expect(Change(amount: 18_700).units == [10_000: 1, 5_000: 1, 1_000: 3, 500: 1, 100: 2])
        #expect(Change(amount: 4_200).units == [1_000: 4, 100: 2])
        #expect(Change(amount: 0).units == [:])
    }

    @Test func returningChangeEmptiesTheBalanceAndConservesMoney() throws {
        var money = MoneyTotals()
        try money.insert(5_000)
        try money.insert(1_000)
        try money.spend(1_700)
        let change = money.returnChange()
        #expect(change.returned == 4_300)
        #expect(money.balance == 0 && money.returned == 4_300 && money.isConserved)
    }

    @Test func wonReadsWithThousandsSeparators() {
        #expect(Won.format(6_000) == "6,000원")
        #expect(Won.format(1_234_567) == "1,234,567원")
        #expect(Won.format(0) == "0원")
    }

    @Test func theSmallestIntegerIsRefusedWithAReadableAmount() {
        var money = MoneyTotals()
        #expect(throws: VendingError.invalidDenomination(Int.min)) { try money.insert(Int.min) }
        #expect(Won.format(Int.min) == "-9,223,372,036,854,775,808원")
    }
}

@Suite struct VendingBookTests {
    let now = Date(timeIntervalSince1970: 1_795_395_600)
    let cola = Catalog.products.first { $0.id == "cola" }!

    func item(_ id: Int64, expiresIn seconds: TimeInterval) -> Item {
        Item(id: id, product: "cola", manufactured: now.addingTimeInterval(Double(id)), expires: now.addingTimeInterval(seconds))
    }

    @Test func purchasesTakeTheOldestFreshItemsInTurnAndSpendTheBalance() throws {
        var book = VendingBook(catalog: Catalog.products, money: MoneyTotals(), unsold: ["cola": 3],
                               oldestItems: ["cola": [item(1, expiresIn: -1), item(2, expiresIn: 60), item(3, expiresIn: 60)]])
        _ = try book.decide(.insert(5_000), actor: "a", at: now)
        let first = try book.decide(.purchase("cola"), actor: "a", at: now)
        let second = try book.decide(.purchase("cola"), actor: "a", at: now)
        #expect(first.sold?.item.id == 2 && second.sold?.item.id == 3)
        #expect(second.money?.balance == 5_000 - 2 * cola.price)
        #expect(second.movement == MoneyMovement(kind: .spend, amount: cola.price, balanceAfter: 5_000 - 2 * cola.price))
        #expect(book.unsold["cola"] == 1)
        // One item is left, but it has expired.
        #expect(throws: VendingError.expired("cola")) { try book.decide(.purchase("cola"), actor: "a", at: now) }
    }

    @Test func aRefusedWriteLeavesTheBookAsItWas() throws {
        var book = VendingBook(catalog: Catalog.products, money: MoneyTotals(balance: 45_100, inserted: 45_100), unsold: ["cola": 1],
                               oldestItems: ["cola": [item(1, expiresIn: 60)]])
        let before = book
        #expect(throws: VendingError.expired("cola")) { try book.decide(.purchase("cola"), actor: "a", at: now.addingTimeInterval(61)) }
        #expect(throws: VendingError.soldOut("cider")) { try book.decide(.purchase("cider"), actor: "a", at: now) }
        #expect(throws: VendingError.balanceCapExceeded(balance: 45_100, amount: 10_000)) {
            try book.decide(.insert(10_000), actor: "a", at: now)
        }
        #expect(throws: VendingError.invalidCount(0)) {
            try book.decide(.restock("cola", count: 0, manufactured: now), actor: "a", at: now)
        }
        #expect(book == before)
        let change = try book.decide(.returnChange, actor: "a", at: now)
        #expect(change.change == Change(amount: 45_100) && change.money?.balance == 0 && change.money?.isConserved == true)
        #expect(throws: VendingError.insufficientBalance(price: cola.price, balance: 0)) {
            try book.decide(.purchase("cola"), actor: "a", at: now)
        }
    }
}
