import Membership
import Testing

/// How a member made by a Kakao sign-in is named.
@Suite struct OutsideSignInNamingTests {
    @Test(arguments: [
        ("김철수", "gimcheolsu"), ("홍길동", "honggildong"), ("이 쁜", "i_ppeun"), ("Jane Doe!", "jane_doe"),
        ("José", "jose"), ("  __Ana--Lee__ ", "ana_lee"), ("user123", "user123"),
        ("한국어닉네임이정말로아주길어요", "hangukeonikneimijeon"),
    ])
    func aNicknameGivesAUsernameWhenItCan(nickname: String, username: String) {
        let expected = String(username.prefix(20)).trimmingCharacters(in: ["_"])
        #expect(AccountRules.usernameCandidates(nickname: nickname, subject: "4242") == [expected, "kakao_4242"])
    }

    @Test(arguments: ["😀🎉", "ab", "", "!!!", "ㅋㅋ", "日本"])
    func otherwiseTheMemberNumberDoes(nickname: String) {
        #expect(AccountRules.usernameCandidates(nickname: nickname, subject: "4242") == ["kakao_4242"])
        #expect(AccountRules.usernameCandidates(nickname: nil, subject: "4242") == ["kakao_4242"])
    }

    @Test func theMemberNumbersEndIsKeptAndCleaned() {
        #expect(AccountRules.usernameCandidates(nickname: nil, subject: "123456789012345678") == ["kakao_56789012345678"])
        #expect(AccountRules.usernameCandidates(nickname: nil, subject: "AbC-9") == ["kakao_abc9"])
        for candidate in AccountRules.usernameCandidates(nickname: "김철수", subject: String(repeating: "9", count: 40)) {
            #expect(AccountRules.isValid(username: candidate))
        }
    }

    @Test func takenNamesAreTriedWithANumberThatFits() {
        let tries = AccountRules.usernameTries(["gimcheolsu", "bad name", "kakao_1", "gimcheolsu"])
        #expect(Array(tries.prefix(4)) == ["gimcheolsu", "kakao_1", "gimcheolsu2", "gimcheolsu3"])
        let long = AccountRules.usernameTries(["abcdefghijklmnopqrst"])
        #expect(long.contains("abcdefghijklmnopqr10") && long.allSatisfy(AccountRules.isValid(username:)))
        #expect(AccountRules.usernameTries(["no"]).isEmpty)
    }

    @Test func theNameIsTheNicknameWhenItCanBeOne() {
        #expect(AccountRules.memberName(nickname: " 김철수 ", username: "gimcheolsu") == "김철수")
        #expect(AccountRules.memberName(nickname: nil, username: "kakao_1") == "kakao_1")
        #expect(AccountRules.memberName(nickname: "a\u{0}b", username: "kakao_1") == "kakao_1")
        #expect(AccountRules.memberName(nickname: String(repeating: "가", count: 60), username: "x").count
                == AccountRules.maximumNameLength)
    }
}
