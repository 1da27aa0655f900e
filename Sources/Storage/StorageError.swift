/// Why the shop's database could not do what was asked. Every case but `invalidLocation` and
/// `unusable` (found at start) means the write was not made: nothing partial is left behind.
public enum StorageError: Error, CustomStringConvertible, Equatable {
    case invalidLocation(String)
    case unreachable(String)
    /// The file or server at the location is not a shop database, or cannot keep its promises.
    case unusable(String)
    /// The database could not take the write in time; nothing was changed.
    case busy(String)
    /// The disk is full; the write was rolled back.
    case full
    /// The database file was deleted or replaced under the running server; the write was refused
    /// rather than made into a file nobody will open again.
    case lost(String)
    /// The database server went away (restarting, crashed, the network cut) while the shop was
    /// running. The write was not made, or — when the connection broke during its commit — it is
    /// in doubt: a retry with the same `Idempotency-Key` finds out which, and never acts twice.
    case unavailable(String)

    public var description: String {
        switch self {
        case .invalidLocation(let reason): "invalid database URL: \(reason)"
        case .unreachable(let reason), .unusable(let reason), .busy(let reason), .lost(let reason),
             .unavailable(let reason): reason
        case .full: "the disk is full; nothing was saved"
        }
    }

    /// What a refused write is counted and reported as (`juicemaker_refused_writes_total{cause}`,
    /// `/health`): the API's error code for it. Nil for an error that is not the storage's trouble.
    public var refusalCause: String? {
        switch self {
        case .full: "storage_full"
        case .lost: "storage_lost"
        case .busy: "storage_busy"
        case .unavailable, .unreachable: "storage_unavailable"
        case .invalidLocation, .unusable: nil
        }
    }
}
