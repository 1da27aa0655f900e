import Foundation
import ShopBasics
@testable import Storage
import Testing

/// The shop's info for its receipts, on every engine: `unset` until set, kept with the shop for
/// every process, changed field by field in one write each, and never changed by a refusal.
struct ShopInfoContractTests {
    static let gangnam = try! ShopInfo(name: "쥬스메이커 강남점", businessNumber: "124-81-00998",
                                       address: "서울특별시 강남구 테헤란로 1", phone: "02-123-4567")

    @Test(arguments: Engine.available)
    func aNewShopIsUnsetUntilItsInfoIsSetThenEveryProcessReadsIt(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        #expect(try await shop.database.shopInfo() == .unset)
        try await shop.database.settings.setShopInfo(Self.gangnam)
        let other = try await shop.reopen()
        #expect(try await other.shopInfo() == Self.gangnam)
        #expect(try await other.settings.timeZone() == TimeZone.current, "the time zone is its own")
        await other.close()
    }

    @Test(arguments: Engine.available)
    func anEditChangesTheFieldsItGivesAndARefusedOneNothing(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let settings = shop.database.settings
        try await settings.setShopInfo(Self.gangnam)
        let moved = try await settings.editShopInfo(ShopInfoEdit(address: "서울특별시 마포구 양화로 45", phone: ""))
        #expect(moved.address == "서울특별시 마포구 양화로 45" && moved.phone == nil)
        #expect(moved.name == Self.gangnam.name && moved.businessNumber == Self.gangnam.businessNumber)
        #expect(try await settings.shopInfo() == moved)
        await #expect(throws: ShopInfoError.wrongCheckDigit("124-81-00999")) {
            try await settings.editShopInfo(ShopInfoEdit(name: "새 이름", businessNumber: "124-81-00999"))
        }
        #expect(try await settings.shopInfo() == moved, "nothing of the refused edit was stored")
    }

    /// Each edit reads the info in its own write: edits of different fields made at once from
    /// two processes all take.
    @Test(arguments: Engine.available)
    func editsOfDifferentFieldsMadeAtOnceAllTake(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        let other = try await shop.reopen()
        let edits = [ShopInfoEdit(name: "쥬스메이커 강남점"), ShopInfoEdit(businessNumber: "1248100998"),
                     ShopInfoEdit(address: "서울특별시 강남구 테헤란로 1"), ShopInfoEdit(phone: "02-123-4567")]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, edit) in edits.enumerated() {
                let settings = index.isMultiple(of: 2) ? shop.database.settings : other.settings
                group.addTask { _ = try await settings.editShopInfo(edit) }
            }
            try await group.waitForAll()
        }
        #expect(try await shop.database.shopInfo() == Self.gangnam)
        await other.close()
    }

    /// A field written behind the shop's back that the shop would refuse reads as not given.
    @Test(arguments: Engine.available)
    func aFieldWrittenBehindTheShopsBackThatItWouldRefuseReadsAsNotGiven(_ engine: Engine) async throws {
        let shop = try await TestShop(engine)
        try await shop.database.settings.setShopInfo(Self.gangnam)
        try await shop.executeBehindTheShop("UPDATE shop_setting SET business_number = '124-81-00999'")
        let read = try await shop.database.shopInfo()
        #expect(read.businessNumber == nil && read.name == Self.gangnam.name && read.phone == Self.gangnam.phone)
    }

    /// A SQLite shop made before keeps its time zone and starts with no info.
    @Test func aShopMadeBeforeStartsUnsetAndKeepsItsZone() async throws {
        let shop = try await TestShop(sqliteUpTo: "juiceBar.v8.prices", rows: "UPDATE shop_setting SET time_zone = 'UTC'")
        #expect(try await shop.database.shopInfo() == .unset)
        #expect(try await shop.database.settings.timeZone() == TimeZone(identifier: "UTC"))
    }
}
