import ArgumentParser
import Foundation
import JuiceBar
import Storage

/// The options every shop command shares: which database to use.
struct ShopOptions: ParsableArguments {
    @Option(help: "The SQLite file (default: $JUICEMAKER_DATABASE, else ./juicemaker.sqlite).")
    var database: String?

    var databasePath: String {
        database ?? ProcessInfo.processInfo.environment["JUICEMAKER_DATABASE"] ?? "juicemaker.sqlite"
    }

    func openJuiceBar() throws -> any JuiceBarStore {
        SQLiteJuiceBarStore(database: try SQLiteDatabase(path: databasePath))
    }
}

/// Who the CLI records in the ledger: the local user, so a ledger line says who typed it.
let cliActor = "cli:" + (ProcessInfo.processInfo.environment["USER"] ?? "local")

/// Refused input ends the command with exit code 2 and its one-line reason.
struct RefusedInput: Error, CustomStringConvertible {
    let description: String
}

extension JuiceBarError {
    var refused: RefusedInput { RefusedInput(description: description) }
}

/// Runs a shop operation, turning refused input into exit code 2 with its reason.
func refusingBadInput<T>(_ operation: () async throws -> T) async throws -> T {
    do {
        return try await operation()
    } catch let error as JuiceBarError {
        FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
        throw ExitCode(2)
    }
}

/// JSON as the CLI prints it: stable key order, ISO 8601 times.
let jsonEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
}()

func printJSON(_ value: some Encodable) throws {
    print(String(decoding: try jsonEncoder.encode(value), as: UTF8.self))
}

/// A `--limit` that must be a positive whole number.
struct LimitOption: ParsableArguments {
    @Option(help: "Show only the newest N.")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }
}
