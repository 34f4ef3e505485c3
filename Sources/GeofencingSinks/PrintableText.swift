/// Text from outside (region identifiers, a command's output) made safe to print for people: on a terminal, in a
/// log or in a listing it shows what it holds and cannot act on the terminal.
public enum PrintableText {
    /// `text` with everything a terminal would act on escaped: C0 and C1 control characters and DEL (`\n`, `\r`,
    /// `\t`, `\e` for ESC, else `\u{9b}`), the line and paragraph separators, and the bidirectional overrides and
    /// isolates that can make a line read differently from what it holds; a backslash is doubled so that the
    /// escapes are unambiguous (the escaped text tells apart `a\nb` and a line break). An empty text prints as
    /// `""`. The result holds no scalar below U+0020 and none of the escaped ones, so it is always one line.
    public static func escaped(_ text: String) -> String {
        if text.isEmpty { return "\"\"" }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x1B: out += "\\e"
            case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
