import Dispatch
import Foundation
import Logging
import NIOPosix
import Synchronization

/// The shop's log lines, in swift-log's `StreamLogHandler` format, on standard error. A request
/// only appends its line to a buffer (`LogLines`); a thread of the log's own writes out the lines
/// gathered in the last `LogLines.gathering` with one `write`. One line per request written and flushed by the
/// request itself (swift-log's handler) cost a system call and a lock turn per request, and waking
/// the log's thread per line cost as much again in context switches (`perf`, `scripts/bench`).
/// Lines come out at most `gathering` late (a notice or worse at once); `flush()` writes out what
/// is left before the process ends.
public struct ShopLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let output: LogLines

    public init(label: String, output: LogLines = .standardError) {
        self.label = label
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = event.metadata ?? [:]
        if !metadata.isEmpty { fields.merge(metadata) { given, _ in given } }
        if let error = event.error { fields["error"] = .string("\(error)") }
        output.append(level: event.level, label: label,
                      fields: fields.map { (key: $0.key, value: $0.value.description) }.sorted { $0.key < $1.key },
                      source: event.source, message: event.message.description)
    }
}

/// Lines waiting to be written to one file descriptor, and the thread that writes them. Each
/// thread appends to a shard of its own, so the threads serving requests on different cores do not
/// pass one lock and one buffer between them per line: shared, the access log cost `GET /health`
/// server CPU on two cores, and nothing measurable with the server held to one core (`taskset`;
/// see docs/performance.md). A thread's lines come out in its order; lines of different threads
/// appended within one `gathering` may come out in either order.
public final class LogLines: Sendable {
    public static let standardError = LogLines(descriptor: STDERR_FILENO)

    /// One thread's lines waiting, and the stamp it last wrote: the clock is formatted once a second.
    private final class Shard: Sendable {
        struct Lines {
            var bytes: [UInt8] = []
            var stampedSecond = -1
            var stamp: [UInt8] = []
        }
        let lines = Mutex(Lines())
    }

    /// How long lines gather before they are written out; sooner once `fullEnough` bytes wait.
    static let gathering = DispatchTimeInterval.milliseconds(10)
    static let fullEnough = 64 * 1024

    private let descriptor: Int32
    private let shards = Mutex<[Shard]>([])
    private let ownShard = ThreadSpecificVariable<Shard>()
    /// A write-out is due: lines appended meanwhile go with it.
    private let due = Atomic(false)
    private let writer = DispatchQueue(label: "juicemaker.log")

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Adds a line as `StreamLogHandler` writes it: `<time> <level> <label>: <key>=<value>…
    /// [<source>] <message>`, the fields in the order given. The line is written as bytes straight
    /// into the waiting ones: built as a `String` first, its appends showed in `perf` for every request.
    /// A notice or worse (rare, and wanted at once) is written out without waiting for more.
    func append(level: Logger.Level, label: String, fields: [(key: String, value: String)], source: String,
                message: String) {
        let now = time(nil)
        let full = shard().lines.withLock { lines in
            let before = lines.bytes.count
            if lines.stampedSecond != now {
                lines.stamp = Self.timestamp(now)
                lines.stampedSecond = now
            }
            lines.bytes.append(contentsOf: lines.stamp)
            lines.bytes.append(.space); lines.bytes.append(contentsOf: level.rawValue.utf8)
            lines.bytes.append(.space); lines.bytes.append(contentsOf: label.utf8); lines.bytes.append(UInt8(ascii: ":"))
            for field in fields {
                lines.bytes.append(.space); lines.bytes.append(contentsOf: field.key.utf8)
                lines.bytes.append(UInt8(ascii: "=")); lines.bytes.append(contentsOf: field.value.utf8)
            }
            lines.bytes.append(contentsOf: " [".utf8); lines.bytes.append(contentsOf: source.utf8)
            lines.bytes.append(contentsOf: "] ".utf8); lines.bytes.append(contentsOf: message.utf8)
            lines.bytes.append(.newline)
            return before < Self.fullEnough && lines.bytes.count >= Self.fullEnough
        }
        // Read before exchanged: while a write-out is due (nearly always), the flag's cache line
        // stays shared between the cores instead of moving with every line.
        let first = !due.load(ordering: .relaxed) && !due.exchange(true, ordering: .acquiringAndReleasing)
        if full || level >= .notice {
            writer.async { self.writeAll() }
        } else if first {
            writer.asyncAfter(deadline: .now() + Self.gathering) { self.writeAll() }
        }
    }

    /// The calling thread's shard, made the first time it logs.
    private func shard() -> Shard {
        if let own = ownShard.currentValue { return own }
        let own = Shard()
        shards.withLock { $0.append(own) }
        ownShard.currentValue = own
        return own
    }

    /// How many threads' shards are kept.
    var shardCount: Int { shards.withLock { $0.count } }

    /// Writes out every line appended so far, before returning.
    public func flush() {
        writer.sync { writeAll() }
    }

    /// Takes every shard's lines and writes them out, until none are left. A shard only the list
    /// still holds belonged to a thread that has ended (its thread-specific reference went with it):
    /// once emptied it is dropped.
    private func writeAll() {
        while true {
            due.store(false, ordering: .sequentiallyConsistent)
            var bytes: [UInt8] = []
            shards.withLock { shards in
                for shard in shards {
                    shard.lines.withLock { lines in
                        bytes.append(contentsOf: lines.bytes)
                        lines.bytes.removeAll(keepingCapacity: true)
                    }
                }
                for index in shards.indices.reversed() where isKnownUniquelyReferenced(&shards[index]) {
                    shards.remove(at: index)
                }
            }
            guard !bytes.isEmpty else { return }
            send(bytes)
        }
    }

    /// Writes all of `bytes`, resuming after a short write or an interrupted call; a log that
    /// cannot be written (a closed pipe) drops the lines rather than stopping the shop.
    private func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// The local time to the second with its offset, as `StreamLogHandler` writes it.
    private static func timestamp(_ second: Int) -> [UInt8] {
        var now = second
        var local = tm()
        localtime_r(&now, &local)
        var text = [UInt8](repeating: 0, count: 64)
        let length = text.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { strftime($0.baseAddress, $0.count, "%Y-%m-%dT%H:%M:%S%z", &local) }
        }
        return Array(text.prefix(length))
    }
}

private extension UInt8 {
    static let space = UInt8(ascii: " ")
    static let newline = UInt8(ascii: "\n")
}
