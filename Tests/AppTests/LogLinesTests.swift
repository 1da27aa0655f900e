import Foundation
import Logging
import Testing
@testable import App

@Suite struct LogLinesTests {
    /// A log writing to a file of its own, and what the file holds once the log is flushed.
    final class LogFile: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        let descriptor: Int32
        let lines: LogLines

        init() {
            descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            lines = LogLines(descriptor: descriptor)
        }

        deinit {
            close(descriptor)
            try? FileManager.default.removeItem(at: url)
        }

        func written() throws -> [Substring] {
            lines.flush()
            return try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        }
    }

    @Test func aLineIsWrittenInTheStreamFormatWithItsFieldsSortedAndTheErrorAmongThem() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "the disk is full" } }
        let file = LogFile()
        var logger = Logger(label: "juicemaker") { ShopLogHandler(label: $0, output: file.lines) }
        logger[metadataKey: "hb.request.id"] = "42"
        logger.error("could not keep it", error: Broken(), metadata: ["path": "/api/orders", "client": "10.0.0.1"])
        let line = try #require(try file.written().first)
        #expect(line.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} error juicemaker: client=10.0.0.1 error=the disk is full hb.request.id=42 path=\/api\/orders \[AppTests\] could not keep it/) != nil,
                "\(line)")
    }

    @Test func everyThreadsLinesComeOutWholeAndInItsOrder() throws {
        let file = LogFile()
        let threads = 4, each = 2_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<each {
                file.lines.append(level: .info, label: "test", fields: [(key: "thread", value: "\(thread)"), (key: "n", value: "\(index)")],
                                  source: "AppTests", message: "line")
            }
        }
        var next = [Int](repeating: 0, count: threads)
        for line in try file.written() {
            let match = try #require(line.firstMatch(of: /info test: thread=(\d+) n=(\d+) \[AppTests\] line$/), "\(line)")
            let thread = Int(match.1)!
            #expect(Int(match.2)! == next[thread], "thread \(thread)'s lines out of order")
            next[thread] += 1
        }
        #expect(next == [Int](repeating: each, count: threads))
    }

    @Test func theShardOfAThreadThatEndedIsDroppedOnceItsLinesAreOut() throws {
        let file = LogFile()
        for index in 0..<20 {
            let thread = Thread { file.lines.append(level: .info, label: "test", fields: [], source: "AppTests", message: "\(index)") }
            thread.start()
            while !thread.isFinished { usleep(1_000) }
        }
        #expect(try file.written().count == 20)
        // The thread-specific reference is released as the thread ends, which `isFinished` may precede.
        for _ in 0..<100 where file.lines.shardCount > 0 {
            usleep(10_000)
            file.lines.flush()
        }
        #expect(file.lines.shardCount == 0)
    }
}

@Suite struct AccessLogTests {
    @Test func theTimeTakenIsInMillisecondsToTwoPlacesRounded() {
        #expect(AccessLogMiddleware.milliseconds(.microseconds(1_234)) == "1.23")
        #expect(AccessLogMiddleware.milliseconds(.microseconds(1_235)) == "1.24")
        #expect(AccessLogMiddleware.milliseconds(.microseconds(4)) == "0.00")
        #expect(AccessLogMiddleware.milliseconds(.microseconds(90)) == "0.09")
        #expect(AccessLogMiddleware.milliseconds(.milliseconds(12)) == "12.00")
        #expect(AccessLogMiddleware.milliseconds(.seconds(2) + .microseconds(500)) == "2000.50")
    }
}
