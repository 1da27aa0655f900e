import Foundation

/// Runs the built `juicemaker` executable, as a person at a terminal would.
struct CLI {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The executable sits beside the test bundle in the build folder.
    static let executable: URL = {
        if let path = ProcessInfo.processInfo.environment["JUICEMAKER_BIN"] { return URL(fileURLWithPath: path) }
        var folder = Bundle.main.bundleURL
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("juicemaker")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        fatalError("juicemaker executable not found beside \(Bundle.main.bundleURL.path); run `swift build` first")
    }()

    let database: String

    init() {
        database = FileManager.default.temporaryDirectory
            .appendingPathComponent("juicemaker-cli-\(UUID().uuidString).sqlite").path
    }

    func removeFiles() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
    }

    /// Starts `juicemaker <arguments> --database <file>` and returns the running process with its pipes.
    func start(_ arguments: [String], environment: [String: String]? = nil) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments + ["--database", database]
        if let environment { process.environment = environment }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return (process, stdout, stderr)
    }

    @discardableResult
    func callAsFunction(_ arguments: String...) throws -> Result {
        try finish(start(arguments))
    }

    func finish(_ running: (Process, Pipe, Pipe)) throws -> Result {
        let (process, stdout, stderr) = running
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }

    func stock() throws -> [String: Int] {
        try JSONDecoder().decode([String: Int].self, from: Data(callAsFunction("stock", "--json").stdout.utf8))
    }
}
