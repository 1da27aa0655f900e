import Foundation
import ShopBasics

/// How a member made by an outside sign-in (Kakao) is named: a username and a display name from
/// the provider's nickname, both editable later.
extension AccountRules {
    static let maximumUsernameLength = 20

    /// Valid usernames to try, best first: the nickname romanised and cleaned when that leaves a
    /// valid one (`김철수` → `gimcheolsu`, `Jane Doe` → `jane_doe`), then `kakao_` and the end of
    /// the provider's member number, which no nickname shares.
    public static func usernameCandidates(nickname: String?, subject: String) -> [String] {
        let fromNickname = nickname.map(cleanedUsername) ?? ""
        let tail = String(subject.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.suffix(14))
        return [fromNickname, "kakao_" + tail].filter(isValid(username:))
    }

    /// The usernames a new member tries in turn until one is free: the valid candidates, then the
    /// first of them with 2, 3, … after it (cut to fit).
    public static func usernameTries(_ candidates: [String]) -> [String] {
        var tries: [String] = []
        for candidate in candidates where isValid(username: candidate) && !tries.contains(candidate) {
            tries.append(candidate)
        }
        guard let first = tries.first else { return [] }
        return tries + (2...999).map { number in
            let suffix = String(number)
            return String(first.prefix(maximumUsernameLength - suffix.count)) + suffix
        }
    }

    /// The display name of a new member: the nickname when it is one a name may be, else the username.
    public static func memberName(nickname: String?, username: String) -> String {
        let name = String((nickname ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(maximumNameLength))
        return !name.isEmpty && WrittenText.isAcceptable(name) ? name : username
    }

    /// Lowercase a-z and 0-9 with Hangul romanised and other letters without their marks; every
    /// run of anything else becomes one `_`, none at either end; cut to 20.
    static func cleanedUsername(_ nickname: String) -> String {
        var cleaned = ""
        for scalar in nickname.unicodeScalars {
            let piece = HangulRomanization.romanize(scalar)
                ?? String(scalar).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
            for character in piece.lowercased() {
                let kept = character.isASCII && (character.isLetter || character.isNumber)
                if kept || cleaned.last != "_" { cleaned.append(kept ? character : "_") }
            }
        }
        let trimmed = cleaned.trimmingCharacters(in: CharacterSet(charactersIn: "_"))
        return String(trimmed.prefix(maximumUsernameLength)).trimmingCharacters(in: CharacterSet(charactersIn: "_"))
    }
}

/// Hangul syllables in the Revised Romanization, letter by letter (no sound changes between
/// syllables): 김 → gim, 철수 → cheolsu.
enum HangulRomanization {
    private static let initials = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"]
    private static let vowels = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we",
                                 "wi", "yu", "eu", "ui", "i"]
    private static let finals = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p",
                                 "t", "t", "ng", "t", "t", "k", "t", "p", "t"]
    private static let syllables: ClosedRange<UInt32> = 0xAC00...0xD7A3

    /// The syllable in Latin letters; nil for anything that is not a Hangul syllable.
    static func romanize(_ scalar: Unicode.Scalar) -> String? {
        guard syllables.contains(scalar.value) else { return nil }
        let index = Int(scalar.value - syllables.lowerBound)
        return initials[index / (21 * 28)] + vowels[index % (21 * 28) / 28] + finals[index % 28]
    }
}
