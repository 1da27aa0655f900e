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
        #expect(VendingError.invalidDenomination(Int.min).description.hasPrefix("-9,223,372,036,854,775,808원"))
    }
}
