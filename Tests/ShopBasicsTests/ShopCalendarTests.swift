import Foundation
@testable import ShopBasics
import Testing

/// `dayText` counts days from the zone's offset itself; it must name the day Foundation's calendar
/// names, in zones with half-hour, quarter-hour and daylight-saving offsets, on leap days and far
/// from 1970 on either side (before 15 October 1582, Foundation's Julian days).
@Suite struct ShopCalendarTests {
    static let zones = ["Asia/Seoul", "UTC", "America/New_York", "America/St_Johns", "Pacific/Chatham",
                        "Pacific/Kiritimati", "Pacific/Pago_Pago"]

    @Test(arguments: zones)
    func theDayIsTheOneFoundationsCalendarNames(_ zone: String) throws {
        let shop = ShopCalendar(timeZone: try #require(TimeZone(identifier: zone)))
        // 1900, 1969-12-31, 1970, 2000-02-29, 2100-03-01, 2200, and around 1582-10-15, Foundation's first Gregorian day.
        var moments: [TimeInterval] = [-2_208_988_800, -1.0, 0, 951_782_400, 951_868_799, 4_107_542_400, 4_107_628_800, 7_258_118_400,
                       -12_219_292_800 - 86_400, -12_219_292_800 - 1, -12_219_292_800, -12_219_292_800 + 86_400]
        var generator = SystemRandomNumberGenerator()
        moments += (0..<2_000).map { _ in Double.random(in: -2_208_988_800...7_258_118_400, using: &generator).rounded(.down) }
        for moment in moments.map(Date.init(timeIntervalSince1970:)) {
            let fields = shop.calendar.dateComponents([.year, .month, .day], from: moment)
            let expected = String(format: "%04d-%02d-%02d", fields.year!, fields.month!, fields.day!)
            #expect(shop.dayText(of: moment) == expected, "\(moment) in \(zone)")
        }
    }

    @Test(arguments: zones)
    func theTimeIsTheOneFoundationsCalendarNames(_ zone: String) throws {
        let shop = ShopCalendar(timeZone: try #require(TimeZone(identifier: zone)))
        var generator = SystemRandomNumberGenerator()
        let moments = [-1.0, 0, 1_795_395_599] + (0..<500).map { _ in
            Double.random(in: -2_208_988_800...7_258_118_400, using: &generator).rounded(.down)
        }
        for moment in moments.map(Date.init(timeIntervalSince1970:)) {
            let fields = shop.calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: moment)
            let expected = String(format: "%04d-%02d-%02d %02d:%02d:%02d", fields.year!, fields.month!, fields.day!,
                                  fields.hour!, fields.minute!, fields.second!)
            #expect(shop.timeText(of: moment) == expected, "\(moment) in \(zone)")
        }
    }

    @Test func theDaysAroundAMidnightAreTwo() throws {
        let seoul = ShopCalendar(timeZone: try #require(TimeZone(identifier: "Asia/Seoul")))
        let midnight = try #require(seoul.day("2026-11-27"))
        #expect(seoul.dayText(of: midnight.addingTimeInterval(-1)) == "2026-11-26")
        #expect(seoul.dayText(of: midnight) == "2026-11-27")
        #expect(ShopCalendar.civilDate(daysSince1970: -1) == (1969, 12, 31))
        #expect(ShopCalendar.civilDate(daysSince1970: 11_016) == (2000, 2, 29))
    }
}
