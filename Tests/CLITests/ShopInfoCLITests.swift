import Foundation
import Testing

/// `juicemaker shop info`: prints the shop's receipt header, sets the fields given, and refuses a
/// bad value in one line, exit 2, with nothing changed.
@Suite struct ShopInfoCLITests {
    let cli = CLI()

    struct Info: Decodable, Equatable {
        let name: String
        let businessNumber: String?
        let address: String?
        let phone: String?
    }

    func info() throws -> Info {
        try JSONDecoder().decode(Info.self, from: Data(cli("shop", "info", "--json").stdout.utf8))
    }

    @Test func theInfoIsPrintedAndSetFieldByField() throws {
        defer { cli.removeFiles() }
        #expect(try cli("shop", "info").stdout == "상호: JuiceMaker\n사업자등록번호: -\n주소: -\n전화: -\n")
        let set = try cli("shop", "info", "--name", "쥬스메이커 강남점", "--business-number", "1248100998",
                          "--address", "서울특별시 강남구 테헤란로 1", "--phone", "02-123-4567")
        #expect(set.status == 0)
        #expect(set.stdout == "상호: 쥬스메이커 강남점\n사업자등록번호: 124-81-00998\n주소: 서울특별시 강남구 테헤란로 1\n전화: 02-123-4567\n")
        #expect(try cli("shop", "info", "--phone", "02-987-6543", "--address", "").status == 0)
        #expect(try info() == Info(name: "쥬스메이커 강남점", businessNumber: "124-81-00998", address: nil, phone: "02-987-6543"))
    }

    @Test(arguments: [
        (["--business-number", "124-81-00999"], "검증번호"),
        (["--business-number", "12-345"], "숫자 10자리"),
        (["--name", " "], "가게 이름"),
        (["--phone", "call me"], "전화번호"),
        (["--name", "새 이름", "--phone", "02"], "전화번호"),
    ])
    func aBadValueIsRefusedInOneLineAndChangesNothing(arguments: [String], reason: String) throws {
        defer { cli.removeFiles() }
        let before = try info()
        let refused = try cli.finish(cli.start(["shop", "info"] + arguments))
        #expect(refused.status == 2)
        let line = refused.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix("error: ") && !line.contains("\n") && line.contains(reason), "\(line)")
        #expect(try info() == before)
    }
}
