import JuiceBar
import ShopBasics
import Testing
@testable import App

@Suite struct CSVTextTests {
    @Test func fieldsAreQuotedOnlyWhenTheyMustBe() {
        #expect(CSVText.line([.number(1), .text("딸기"), .text("plain")]) == "1,딸기,plain\r\n")
        #expect(CSVText.quoted("a,b") == "\"a,b\"")
        #expect(CSVText.quoted("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVText.quoted("two\nlines") == "\"two\nlines\"")
        #expect(CSVText.quoted("crlf\r\nhere") == "\"crlf\r\nhere\"", "a CRLF is one Character in Swift, but still a line break")
        #expect(CSVText.quoted("") == "")
    }

    @Test(arguments: ["=1+1", "+82 10", "-2", "@SUM(1+1)", "\tcmd", "\rcmd", "=HYPERLINK(\"http://x.example\",\"클릭\")"])
    func textThatStartsLikeAFormulaGetsALeadingQuote(text: String) {
        #expect(CSVCell.text(text).neutralised == "'" + text)
    }

    @Test func numbersAndOrdinaryTextStayAsTheyAre() {
        #expect(CSVText.line([.number(-2), .number(0), .number(Int64?.none), .text("딸기 -1"), .text("a=b"), .text("")])
                == "-2,0,,딸기 -1,a=b,\r\n")
        #expect(CSVText.line([.text("2026-11-25T09:00:00+09:00"), .text(" =not first"), .text("＝전각")])
                == "2026-11-25T09:00:00+09:00, =not first,＝전각\r\n")
    }

    @Test func anOrdersLinesAreOneCellWithEveryOptionAndPriceAsSold() throws {
        let sale = try Menu.seed.price([
            CartLine(juice: "strawberryBananaJuice", quantity: 2, options: ["size": ["large"], "ice": ["less"]]),
            CartLine(juice: "mangoKiwiJuice"),
        ])
        #expect(ShopExports.linesText(sale.lines, menu: .seed, in: .ko)
                == "딸바쥬스 (사이즈: 라지 +1000, 얼음: 적게, 당도: 기본) 7000 × 2 = 14000; 망키쥬스 (사이즈: 레귤러, 얼음: 보통, 당도: 기본) 6500 × 1 = 6500")
        #expect(ShopExports.linesText(sale.lines, menu: .seed, in: .en)
                .hasPrefix("Strawberry Banana Juice (Size: Large +1000, Ice: Less ice, Sweetness: Regular) 7000 × 2 = 14000; "))
        var noGroups = Menu.seed
        noGroups.optionGroups = []
        #expect(ShopExports.linesText(sale.lines, menu: noGroups, in: .ko).hasPrefix("딸바쥬스 (라지 +1000, 적게, 기본) 7000 × 2"),
                "a group gone from the menu: the options as sold, alone")
        #expect(ShopExports.linesText([], menu: .seed, in: .ko) == "", "an order from before carts")
    }

    @Test func aNeutralisedCellIsStillQuotedByRFC4180() {
        #expect(CSVText.line([.text("=HYPERLINK(\"http://x.example\",\"클릭\")"), .number(-2)])
                == "\"'=HYPERLINK(\"\"http://x.example\"\",\"\"클릭\"\")\",-2\r\n")
        #expect(CSVText.line([.text("\r\n=1")]) == "\"'\r\n=1\"\r\n", "a leading CR is neutralised, then quoted")
        #expect(CSVText.line([.text("-"), .text("@")]) == "'-,'@\r\n")
    }
}
