import Foundation
import JuiceBar
import ShopBasics
import VendingMachine

/// A product in one readable line, in one of the shop's languages: `바나나우유 (빙그레) 240ml 1,700원 ·
/// 우유: 빙그레 남양주목장, 지방 3.4% · 바나나맛`; with an item, its dates after.
public enum ProductDescription {
    public static func of(_ product: Product, item: Item? = nil, in language: Language) -> String {
        let words = Words.of(language).vending
        let category = switch product.category {
        case .milk(let milk):
            words.milkLine.filling(["farm": milk.farm, "fat": "\(milk.fatPercent)"])
        case .soda(let soda):
            words.sodaLine.filling(["calories": "\(soda.calories)"]) + (soda.sugarFree ? ", \(words.sugarFree)" : "")
        case .coffee(let coffee):
            words.coffeeLine.filling(["caffeine": "\(coffee.caffeineMG)", "temperature": coffee.isHot ? words.hot : words.iced])
        }
        let line = "\(product.name[language]) (\(product.brand)) \(product.volumeML)ml \(Won.format(product.price)) · "
            + "\(category) · \(product.flavor[language])"
        guard let item else { return line }
        return line + " · " + words.itemDates.filling(["made": Self.day(item.manufactured), "expires": Self.day(item.expires)])
    }

    /// An item's date, `2026-11-23`.
    private static func day(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day())
    }

    /// The line in each language, by language code: `{"ko": …, "en": …}`.
    static func inEveryLanguage(_ product: Product, item: Item? = nil) -> [String: String] {
        Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0.rawValue, of(product, item: item, in: $0)) })
    }
}
