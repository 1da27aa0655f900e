import Foundation

/// Slows down password guessing: after `maximumFailures` failed sign-ins for one username within
/// `window`, further tries are refused until the oldest of them leaves the window.
public enum SignInThrottle {
    public static let maximumFailures = 5
    public static let window: TimeInterval = 15 * 60

    /// When sign-in for this username opens again, or nil when it is open now.
    public static func lockedUntil(failures: [Date], now: Date) -> Date? {
        let recent = failures.filter { now.timeIntervalSince($0) < window }.sorted()
        guard recent.count >= maximumFailures else { return nil }
        return recent[recent.count - maximumFailures].addingTimeInterval(window)
    }
}
