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

    /// Moments around month, leap-day, century and second boundaries, and many at random.
    @Test func aMomentIsWrittenAsTheEncoderWritesIt() throws {
        var moments: [Double] = [0, -1, -0.25, 59.999_999, 951_782_399.5, 951_782_400, 4_107_542_399.9, 4_107_542_400,
                                 1_795_000_000.75, 253_402_300_799, -2_208_988_800]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 { moments.append(Double.random(in: -2_000_000_000...5_000_000_000, using: &random)) }
        for moment in moments {
            let date = Date(timeIntervalSince1970: moment)
            var text = JSONText()
            text.date(date)
            let written = String(buffer: text.buffer)
            let encoded = String(decoding: try apiEncoder.encode([date]), as: UTF8.self).dropFirst().dropLast()
            #expect(written == encoded, "\(moment)")
        }
    }
}
