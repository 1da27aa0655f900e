import Foundation
import Membership
import Testing

@Suite struct AccountRulesTests {
    @Test(arguments: ["abc", "jimin_01", "a_very_long_name_20c"])
    func acceptsUsernames(username: String) throws {
        try AccountRules.validate(username: username, password: "12345678", name: "")
    }

    @Test(arguments: ["ab", "Jimin", "ji min", "지민", "a_name_of_21_letters_", "semi;colon"])
    func refusesUsernames(username: String) {
        #expect(throws: AccountError.invalidUsername(username)) {
            try AccountRules.validate(username: username, password: "12345678", name: "")
        }
    }

    @Test func passwordsHaveAtLeastEightCharacters() {
        #expect(throws: AccountError.passwordTooShort) { try AccountRules.validate(username: "jimin", password: "1234567", name: "") }
    }
}

@Suite struct SignInThrottleTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func fiveRecentFailuresLockUntilTheOldestLeavesTheWindow() throws {
        let failures = (1...5).map { now.addingTimeInterval(TimeInterval(-60 * $0)) }
        let until = try #require(SignInThrottle.lockedUntil(failures: failures, now: now))
        #expect(until == now.addingTimeInterval(-300 + SignInThrottle.window))
        #expect(SignInThrottle.lockedUntil(failures: Array(failures.prefix(4)), now: now) == nil)
    }

    @Test func oldFailuresDoNotCount() {
        let old = (1...5).map { now.addingTimeInterval(-SignInThrottle.window - TimeInterval($0)) }
        #expect(SignInThrottle.lockedUntil(failures: old, now: now) == nil)
    }
}

@Suite struct ImageKindTests {
    @Test func recognisesImagesByTheirFirstBytes() {
        #expect(ImageKind.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageKind.detect([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageKind.detect(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(ImageKind.detect(Array("GIF89a".utf8)) == nil)
        #expect(ImageKind.detect(Array("<svg></svg>".utf8)) == nil)
    }

    @Test func refusesLargeFiles() {
        let big = [UInt8](repeating: 0, count: ImageKind.maximumBytes + 1)
        #expect(throws: ContentError.imageTooLarge(bytes: big.count)) { try ImageKind.validate(big) }
    }

    @Test func contentNeedsATitle() {
        #expect(throws: ContentError.missingTitle) { try ContentRules.validate(title: "  ", body: "") }
        #expect(throws: ContentError.tooLong(field: "title", limit: 100)) {
            try ContentRules.validate(title: String(repeating: "a", count: 101), body: "")
        }
    }
}

@Suite struct WrittenTextRulesTests {
    @Test func aPasswordOfAtMost72BytesIsTakenAndALongerOneRefused() throws {
        try AccountRules.validate(username: "jimin", password: String(repeating: "a", count: 72), name: "")
        #expect(throws: AccountError.passwordTooLong) {
            try AccountRules.validate(username: "jimin", password: String(repeating: "a", count: 73), name: "")
        }
        // 25 Korean letters are 75 bytes: bcrypt would read only the first 24.
        #expect(throws: AccountError.passwordTooLong) {
            try AccountRules.validate(username: "jimin", password: String(repeating: "가", count: 25), name: "")
        }
    }

    @Test func aNULIsRefusedRatherThanCutShort() {
        #expect(throws: AccountError.invalidText(field: "name")) {
            try AccountRules.validate(username: "jimin", password: "long-enough", name: "Ji\u{0}min")
        }
        #expect(throws: AccountError.invalidText(field: "password")) {
            try AccountRules.validate(username: "jimin", password: "long-enough\u{0}tail", name: "")
        }
        #expect(throws: ContentError.invalidText(field: "title")) { try ContentRules.validate(title: "Sale\u{0}!", body: "") }
        #expect(throws: ContentError.invalidText(field: "body")) { try ContentRules.validate(title: "Sale", body: "a\u{0}b") }
    }
}
