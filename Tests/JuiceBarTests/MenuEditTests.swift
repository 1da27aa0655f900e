import Foundation
import JuiceBar
import Testing

/// Staff's menu writes (메뉴 관리), decided by the book like every other write.
@Suite struct MenuEditTests {
    let time = Date(timeIntervalSince1970: 1_795_395_600)
    var book = JuiceBarBook(menu: .seed, stock: Stock(["kiwi": 10, "mango": 10]))

    @Test mutating func aPriceChangeReachesTheMenuAndTheNextSale() throws {
        let plan = try book.decide(.editJuice("kiwiJuice", JuiceEdit(price: 5_200)), actor: "staff", at: time)
        #expect(plan.changedJuice?.price == 5_200 && plan.changesMenu)
        #expect(try book.menu.price([CartLine(juice: "kiwiJuice")]).total == 5_200)
    }

    @Test mutating func aSoldOutJuiceIsRefusedUntilItIsBack() throws {
        _ = try book.decide(.editJuice("kiwiJuice", JuiceEdit(soldOut: true)), actor: "staff", at: time)
        #expect(throws: SaleError.soldOut("kiwiJuice")) {
            try book.decide(.order(.cup(of: "kiwiJuice")), actor: "guest", at: time)
        }
        #expect(book.stock["kiwi"] == 10, "nothing taken")
        _ = try book.decide(.editJuice("kiwiJuice", JuiceEdit(soldOut: false)), actor: "staff", at: time)
        #expect(try book.decide(.order(.cup(of: "kiwiJuice")), actor: "guest", at: time).order != nil)
    }

    @Test mutating func aRetiredJuiceLeavesTheMenuButStaysKnown() throws {
        let plan = try book.decide(.retireJuice("mangoJuice"), actor: "staff", at: time)
        #expect(plan.changedJuice?.retired == true)
        #expect(!book.menu.onSale.contains { $0.id == "mangoJuice" })
        #expect(book.menu.juice("mangoJuice")?.name.ko == "망고쥬스", "past orders still name it")
        #expect(throws: SaleError.soldOut("mangoJuice")) { try book.decide(.order(.cup(of: "mangoJuice")), actor: "g", at: time) }
        #expect(throws: SaleError.soldOut("mangoJuice")) {
            try book.decide(.editJuice("mangoJuice", JuiceEdit(price: 1)), actor: "staff", at: time)
        }
    }

    @Test mutating func editsOutsideTheRulesChangeNothing() throws {
        let before = book
        #expect(throws: SaleError.priceOutOfRange(-1)) {
            try book.decide(.editJuice("kiwiJuice", JuiceEdit(price: -1)), actor: "staff", at: time)
        }
        #expect(throws: SaleError.unknownOption(group: "topping", option: nil)) {
            try book.decide(.editJuice("kiwiJuice", JuiceEdit(optionGroups: ["size", "topping"])), actor: "staff", at: time)
        }
        #expect(throws: JuiceBarError.unknownFruit("grape")) {
            try book.decide(.editJuice("kiwiJuice", JuiceEdit(recipe: [.init(fruit: "grape", amount: 1)])), actor: "staff", at: time)
        }
        #expect(throws: JuiceBarError.unknownJuice("lemonJuice")) {
            try book.decide(.editJuice("lemonJuice", JuiceEdit(price: 1)), actor: "staff", at: time)
        }
        #expect(book == before)
    }

    @Test mutating func anOptionGroupIsPutOnceAndReplacedByItsId() throws {
        let extras = MenuOptionGroup(id: "extra", name: .init(ko: "추가", en: "Extras"), min: 0, max: 2, options: [
            MenuOption(id: "shot", name: .init(ko: "샷 추가", en: "Extra shot"), price: 500),
            MenuOption(id: "honey", name: .init(ko: "꿀 추가", en: "Honey"), price: 300),
        ])
        #expect(try book.decide(.putOptionGroup(extras), actor: "staff", at: time).optionGroup == extras)
        var dearer = extras
        dearer.options[0].price = 700
        _ = try book.decide(.putOptionGroup(dearer), actor: "staff", at: time)
        #expect(book.menu.optionGroups.filter { $0.id == "extra" } == [dearer])
        _ = try book.decide(.editJuice("kiwiJuice", JuiceEdit(optionGroups: ["size", "extra"])), actor: "staff", at: time)
        let cart = try book.menu.price([CartLine(juice: "kiwiJuice", options: ["extra": ["shot"]])])
        #expect(cart.total == book.menu.juice("kiwiJuice")!.price + 700)
    }
}
