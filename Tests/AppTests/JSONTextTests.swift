import Foundation
import JuiceBar
import NIOCore
import Testing
@testable import App

/// The order answer is written by hand for speed; it must say exactly what JSONEncoder would.
@Suite struct JSONTextTests {
    static let answers = [
        OrderAnswer(
            order: Order(id: 42, juice: "mangoJuice", time: Date(timeIntervalSince1970: 1_795_000_000.75), actor: "guest"),
            stock: Stock(["strawberry": 10, "banana": 0, "mango": 1_000_000]), version: 7),
        OrderAnswer(
            order: Order(id: 1, juice: "odd\"juice\\", time: Date(timeIntervalSince1970: 0), actor: "member:김\n\u{01}탭\t"),
            stock: Stock(), version: Int64.max),
        OrderAnswer(
            order: Order(id: 7, juice: "kiwiJuice", time: Date(timeIntervalSince1970: 1_795_000_000), actor: "member:jimin",
                         number: 12, day: "2026-11-20", status: .received, pickup: true, member: 3),
            stock: Stock(["kiwi": 7]), version: 9),
    ]

    @Test(arguments: answers)
    func theHandWrittenAnswerIsWhatTheEncoderWrites(answer: OrderAnswer) throws {
        let written = Data(buffer: answer.json)
        let encoded = try apiEncoder.encode(answer)
        let parsedWritten = try JSONSerialization.jsonObject(with: written) as? NSDictionary
        let parsedEncoded = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        #expect(parsedWritten != nil && parsedWritten == parsedEncoded,
                "\(String(decoding: written, as: UTF8.self)) vs \(String(decoding: encoded, as: UTF8.self))")
    }
}
