/// Text a person writes into the shop: names, titles, bodies, passwords. A NUL character is
/// refused rather than kept: C strings end at it (SQLite's text functions, bcrypt), so what was
/// stored or checked would silently differ from what was sent.
public enum WrittenText {
    public static func isAcceptable(_ text: String) -> Bool {
        !text.utf8.contains(0)
    }
}
