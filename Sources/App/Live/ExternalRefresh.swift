import Storage

/// A part of the server that keeps state in memory or announces changes, and so must look
/// again when another process writes to the database.
protocol RefreshesOnOutsideWrite: Sendable {
    func refresh() async throws
}

extension JuiceBarService: RefreshesOnOutsideWrite {}
extension VendingService: RefreshesOnOutsideWrite {}
extension LiveShopCalendar: RefreshesOnOutsideWrite {}
