import Testing
@testable import App

@Suite struct CSVTextTests {
    @Test func fieldsAreQuotedOnlyWhenTheyMustBe() {
        #expect(CSVText.line(["1", "딸기", "plain"]) == "1,딸기,plain\r\n")
        #expect(CSVText.quoted("a,b") == "\"a,b\"")
        #expect(CSVText.quoted("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVText.quoted("two\nlines") == "\"two\nlines\"")
        #expect(CSVText.quoted("crlf\r\nhere") == "\"crlf\r\nhere\"", "a CRLF is one Character in Swift, but still a line break")
        #expect(CSVText.quoted("") == "")
    }
}
