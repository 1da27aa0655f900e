import Foundation
import JuiceBar
import NIOCore
import ShopBasics
import Testing
import VendingMachine
@testable import App
@testable import Storage

/// The order and vending answers are written by hand for speed; they must say exactly what
/// JSONEncoder would.
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
        OrderAnswer(
            order: Order(id: 8, juice: "strawberryBananaJuice", time: Date(timeIntervalSince1970: 1_795_000_100), actor: "staff",
                         number: 13, day: "2026-11-20", sale: try! Menu.seed.price([
                             CartLine(juice: "strawberryBananaJuice", quantity: 2, options: ["size": ["large"], "ice": ["less"]]),
                             CartLine(juice: "mangoKiwiJuice"),
                         ]),
                         payment: Payment(method: .cash, amount: 14_000, received: 20_000, change: 6_000,
                                          time: Date(timeIntervalSince1970: 1_795_000_100)),
                         refund: Payment(method: .card, amount: 14_000, approval: "12345678\"",
                                         time: Date(timeIntervalSince1970: 1_795_000_200))),
            stock: Stock(["kiwi": 7]), version: 10),
    ]

    @Test(arguments: answers)
    func theHandWrittenAnswerIsWhatTheEncoderWrites(answer: OrderAnswer) throws {
        let written = Data(answer.json)
        let encoded = try apiEncoder.encode(answer)
        let parsedWritten = try JSONSerialization.jsonObject(with: written) as? NSDictionary
        let parsedEncoded = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        #expect(parsedWritten != nil && parsedWritten == parsedEncoded,
                "\(String(decoding: written, as: UTF8.self)) vs \(String(decoding: encoded, as: UTF8.self))")
    }

    static let machine = VendingState(
        products: Catalog.products.enumerated().map { ProductStock(product: $1, stock: $0 * 3, expired: $0 % 2) },
        money: MoneyTotals(balance: 1_500, inserted: 21_000, spent: 18_000, returned: 1_500), version: 12)

    @Test func theHandWrittenMachineIsWhatTheEncoderWrites() throws {
        try expectSameJSON(VendingAnswer.json(Self.machine), apiEncoder.encode(VendingAnswer(Self.machine)))
        // A second time from the products' kept fixed fields.
        try expectSameJSON(VendingAnswer.json(Self.machine), apiEncoder.encode(VendingAnswer(Self.machine)))
    }

    @Test func theHandWrittenPurchaseIsWhatTheEncoderWrites() throws {
        let product = Catalog.products[4]
        let receipt = PurchaseReceipt(
            sale: Sale(id: 31, product: product.id, price: product.price, time: Date(timeIntervalSince1970: 1_795_000_000.5),
                       itemID: 77),
            item: Item(id: 77, product: product.id, manufactured: Date(timeIntervalSince1970: 1_794_500_000),
                       expires: Date(timeIntervalSince1970: 1_796_000_000)),
            product: product, state: Self.machine)
        try expectSameJSON(PurchaseAnswer.json(receipt), apiEncoder.encode(PurchaseAnswer(receipt)))
    }

    /// Every refusal the API answers, in both languages, and details of each kind: numbers, a
    /// list of objects, a quote to escape.
    @Test(arguments: Language.allCases)
    func theHandWrittenRefusalIsWhatTheEncoderWrites(language: Language) throws {
        let refusals = WordsTests.refusals.map(\.error) + [
            OutOfStock(juice: "mangoKiwiJuice", shortages: [Shortage(fruit: "mango", needed: 2, available: 1),
                                                            Shortage(fruit: "kiwi", needed: 1, available: 0)]),
            APIError.tooManyAttempts(retryAfter: 41.5),
            JuiceBarError.unknownJuice("odd\"juice\\"),
        ]
        for refusal in refusals {
            let error = APIError(refusal)
            try expectSameJSON(error.json(in: language, menu: .seed), apiEncoder.encode(error.body(in: language, menu: .seed)))
        }
    }

    private func expectSameJSON(_ written: [UInt8], _ encoded: Data) throws {
        let written = Data(written)
        let parsedWritten = try JSONSerialization.jsonObject(with: written) as? NSDictionary
        let parsedEncoded = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        #expect(parsedWritten != nil && parsedWritten == parsedEncoded,
                "\(String(decoding: written, as: UTF8.self)) vs \(String(decoding: encoded, as: UTF8.self))")
        #expect(written == encoded, "byte for byte")
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
            let written = String(decoding: text.bytes, as: UTF8.self)
            let encoded = String(decoding: try apiEncoder.encode([date]), as: UTF8.self).dropFirst().dropLast()
            #expect(written == encoded, "\(moment)")
        }
    }
}
