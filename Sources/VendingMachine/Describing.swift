import Foundation

extension Product: CustomStringConvertible {
    /// One readable line, e.g. `바나나맛우유 (빙그레) 240ml 1,700원 · 우유: 매일목장, 지방 3.4% · 바나나맛`.
    public var description: String {
        "\(name.ko) (\(brand)) \(volumeML)ml \(Won.format(price)) · \(categoryLine) · \(flavor.ko)"
    }

    private var categoryLine: String {
        switch category {
        case .milk(let milk): "우유: \(milk.farm), 지방 \(milk.fatPercent)%"
        case .soda(let soda): "탄산: \(soda.calories)kcal\(soda.sugarFree ? ", 무설탕" : "")"
        case .coffee(let coffee): "커피: 카페인 \(coffee.caffeineMG)mg, \(coffee.isHot ? "따뜻한" : "차가운")"
        }
    }

    /// The line for one item of this product, with its dates.
    public func describe(_ item: Item) -> String {
        "\(description) · 제조 \(Won.day(item.manufactured)), 유통기한 \(Won.day(item.expires))"
    }
}

/// Money and days as people read them.
public enum Won {
    /// `6,000원`.
    public static func format(_ amount: Int) -> String {
        let digits = String(amount.magnitude)  // abs(Int.min) would trap
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (amount < 0 ? "-" : "") + grouped + "원"
    }

    static func day(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day())
    }
}
