import ArgumentParser
import Foundation

/// Where `serve` takes the first admin's password from (used only when the shop has no staff yet):
/// `--admin-password-file`, which suits systemd's credentials (`LoadCredential=` and `%d`) and other
/// secret files, else `$JUICEMAKER_ADMIN_PASSWORD`, else none (a generated one is logged once).
struct AdminPasswordOptions: ParsableArguments {
    @Option(help: """
        A file holding the first admin's password (one trailing line break is dropped); \
        beats $JUICEMAKER_ADMIN_PASSWORD. For systemd: --admin-password-file %d/admin-password.
        """)
    var adminPasswordFile: String?

    /// The password, read now; a file that cannot be read or is empty ends the command (exit 2).
    func password() throws -> String? {
        guard let adminPasswordFile else { return ProcessInfo.processInfo.environment["JUICEMAKER_ADMIN_PASSWORD"] }
        return try secret(inFile: adminPasswordFile, naming: "admin password")
    }
}

/// A secret kept in a file, read now; a file that cannot be read or is empty ends the command (exit 2).
func secret(inFile path: String, naming what: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
        throw fail("cannot read the \(what) file \(path)", code: 2)
    }
    // `echo secret > file` ends in a line break that is no part of the secret (CRLF is one Character).
    let secret = text.last?.isNewline == true ? String(text.dropLast()) : text
    guard !secret.isEmpty else { throw fail("the \(what) file \(path) is empty", code: 2) }
    return secret
}
