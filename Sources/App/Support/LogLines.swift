import Dispatch
import Foundation
import Logging
import Synchronization

/// The shop's log lines, in swift-log's `StreamLogHandler` format, on standard error. A request
/// only appends its line to a buffer; a thread of the log's own writes out the lines gathered in
/// the last `LogLines.gathering` with one `write`. One line per request written and flushed by the
/// request itself (swift-log's handler) cost a system call and a lock turn per request, and waking
/// the log's thread per line cost as much again in context switches (`perf`, `scripts/bench`).
/// Lines come out in order, at most `gathering` late (a notice or worse at once); `flush()` writes
/// out what is left before the process ends.
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

    /// The line is appended to piece by piece: an access line is written for every request, and
    /// interpolating each field, then merging and sorting dictionaries of them, showed in `perf`.
    public func log(event: LogEvent) {
        var fields = event.metadata ?? [:]
        for (key, value) in metadata where fields[key] == nil { fields[key] = value }
        if let error = event.error { fields["error"] = .string("\(error)") }
        var line = output.timestamp()
        line.reserveCapacity(256)
        line += " "; line += event.level.rawValue; line += " "; line += label; line += ":"
        for key in fields.keys.sorted() {
            line += " "; line += key; line += "="; line += fields[key]!.description
        }
        line += " ["; line += event.source; line += "] "; line += event.message.description; line += "\n"
        output.append(line, promptly: event.level >= .notice)
    }
}

/// Lines waiting to be written to one file descriptor, and the thread that writes them.
public final class LogLines: Sendable {
    public static let standardError = LogLines(descriptor: STDERR_FILENO)

    private struct Waiting {
        var bytes: [UInt8] = []
        /// A write-out is due: lines appended meanwhile go with it.
        var due = false
    }

    /// How long lines gather before they are written out; sooner once `fullEnough` bytes wait.
    static let gathering = DispatchTimeInterval.milliseconds(10)
    static let fullEnough = 64 * 1024

    private let descriptor: Int32
    private let waiting = Mutex(Waiting())
    private let writer = DispatchQueue(label: "juicemaker.log")
    /// The second a line was last stamped and its text: the clock is read and formatted once a second.
    private let stamp = Mutex<(second: Int, text: String)>((-1, ""))

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Adds a line; a `promptly` one (a notice or worse: rare, and wanted at once) is written out
    /// without waiting for more.
    func append(_ line: String, promptly: Bool = false) {
        let (first, full) = waiting.withLock { waiting in
            let before = waiting.bytes.count
            waiting.bytes.append(contentsOf: line.utf8)
            defer { waiting.due = true }
            return (!waiting.due, before < Self.fullEnough && waiting.bytes.count >= Self.fullEnough)
        }
        if full || promptly {
            writer.async { self.writeAll() }
        } else if first {
            writer.asyncAfter(deadline: .now() + Self.gathering) { self.writeAll() }
        }
    }

    /// Writes out every line appended so far, before returning.
    public func flush() {
        writer.sync { writeAll() }
    }

    private func writeAll() {
        while true {
            let bytes = waiting.withLock { waiting -> [UInt8] in
                if waiting.bytes.isEmpty { waiting.due = false }
                var taken: [UInt8] = []
                swap(&taken, &waiting.bytes)
                return taken
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
    func timestamp() -> String {
        var now = time(nil)
        return stamp.withLock { stamp in
            if stamp.second != now {
                var local = tm()
                localtime_r(&now, &local)
                var text = [CChar](repeating: 0, count: 64)
                strftime(&text, text.count, "%Y-%m-%dT%H:%M:%S%z", &local)
                stamp = (now, String(cString: text))
            }
            return stamp.text
        }
    }
}
