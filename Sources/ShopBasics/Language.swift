/// The languages the shop speaks: Korean first (the seed's labels), English second.
public enum Language: String, Codable, Sendable, CaseIterable {
    case ko, en
}

/// A name in both of the shop's languages.
public struct LocalizedName: Hashable, Codable, Sendable {
    public var ko: String
    public var en: String
    public init(ko: String, en: String) {
        self.ko = ko
        self.en = en
    }
    public subscript(language: Language) -> String {
        switch language {
        case .ko: ko
        case .en: en
        }
    }
}
