import Foundation
import NIOCore
import Testing
@testable import App

/// Request bodies are read by hand when they are flat; whatever the hand reads must be what
/// `JSONDecoder` reads, and whatever `JSONDecoder` refuses the hand must leave to it.
@Suite struct FlatJSONTests {
    struct Sample: Decodable, Equatable {
        let name: String
        let count: Int
        let flag: Bool?
    }

    /// The API's own bodies, as its clients send them: all read by hand.
    static let usual = [
        #"{"name":"mangoKiwiJuice","count":3,"flag":true}"#,
        #"{"name":"georgia","count":-1000}"#,
        #"{ "count" : 0 ,"name":"a b/c", "flag":null }"#,
        "\n\t{\"flag\":false,\"name\":\"\",\"count\":9223372036854775807}\r\n",
        #"{"name":"x","count":1,"unknown":"ignored","other":12}"#,
    ]

    @Test(arguments: usual)
    func aFlatBodyIsReadByHandAsTheDecoderReadsIt(body: String) throws {
        let byHand = try #require(FlatJSON.decode(Sample.self, from: ByteBuffer(string: body)))
        #expect(byHand == (try JSONDecoder().decode(Sample.self, from: Data(body.utf8))))
    }

    /// Bodies the hand does not read (escapes, non-ASCII, fractions, nesting, repeated keys) or
    /// that are not what `Sample` needs, or not JSON.
    static let others = [
        #"{"name":"odd\"name","count":1}"#, #"{"name":"망고","count":1}"#, #"{"name":"\u0041","count":1}"#,
        #"{"name":"a","count":1.0}"#, #"{"name":"a","count":1e2}"#, #"{"name":"a","count":01}"#,
        #"{"name":"a","count":-0}"#, #"{"name":"a","count":9223372036854775808}"#,
        #"{"name":"a","count":-9223372036854775808}"#, #"{"name":"a","count":"5"}"#, #"{"name":"a","count":true}"#,
        #"{"name":null,"count":1}"#, #"{"name":"a"}"#, #"{"name":"a","count":1,"flag":1}"#,
        #"{"name":"a","count":1,"flag":{"x":1}}"#, #"{"name":"a","count":1,"more":[1,2]}"#,
        #"{"name":"a","count":1,"name":"b"}"#, #"{"name":"a","count":1,}"#, #"{"name":"a","count":1}x"#,
        #"{"name":"a","count":1"#, #"{"name":"a" "count":1}"#, #"{name:"a","count":1}"#, #"{"name":'a',"count":1}"#,
        #"{"name":"a","count":1,"flag":tru}"#, #"{"name":"a","count":-}"#, #"{"name":"a","count":1}{}"#,
        "{\"name\":\"a\u{01}\",\"count\":1}", "\u{FEFF}{\"name\":\"a\",\"count\":1}", "", "{}", "[]", "null", "3",
    ]

    @Test(arguments: others)
    func anyOtherBodyIsReadAsTheDecoderReadsItOrLeftToIt(body: String) {
        let decoded = try? JSONDecoder().decode(Sample.self, from: Data(body.utf8))
        if let byHand = FlatJSON.decode(Sample.self, from: ByteBuffer(string: body)) {
            #expect(byHand == decoded)
        }
    }

    @Test func bytesThatAreNotUTF8AreLeftToTheDecoder() {
        var body = ByteBuffer(string: #"{"name":"a"#)
        body.writeBytes([0xFF, 0xFE])
        body.writeString(#"","count":1}"#)
        #expect(FlatJSON.decode(Sample.self, from: body) == nil)
    }

    @Test func whatADecodableAsksBeyondStringsWholeNumbersAndBooleansIsLeftToTheDecoder() {
        struct Timed: Decodable { let at: Date }
        struct Listed: Decodable { let items: [Int] }
        #expect(FlatJSON.decode(Timed.self, from: ByteBuffer(string: #"{"at":12}"#)) == nil)
        #expect(FlatJSON.decode(Listed.self, from: ByteBuffer(string: #"{"items":1}"#)) == nil)
        #expect(FlatJSON.decode(Double.self, from: ByteBuffer(string: "{}")) == nil)
    }
}
