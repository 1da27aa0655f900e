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

    @Test func aNeutralisedCellIsStillQuotedByRFC4180() {
        #expect(CSVText.line([.text("=HYPERLINK(\"http://x.example\",\"클릭\")"), .number(-2)])
                == "\"'=HYPERLINK(\"\"http://x.example\"\",\"\"클릭\"\")\",-2\r\n")
        #expect(CSVText.line([.text("\r\n=1")]) == "\"'\r\n=1\"\r\n", "a leading CR is neutralised, then quoted")
        #expect(CSVText.line([.text("-"), .text("@")]) == "'-,'@\r\n")
    }
}
