/// How values from a fence file are shown inside messages: quoted, with control characters escaped (a newline in an
/// identifier must not split a message in two) and long values cut, so one bad cell cannot flood a terminal.
enum FenceText {
    /// Values longer than this many characters are cut and end in "…".
    static let maximumShownCharacters = 40

    /// A cell or JSON value as the file holds it: `'12abc'`.
    static func quotedValue(_ text: String) -> String {
        "'" + escaped(text) + "'"
    }

    /// A cell given as UTF-8 bytes (possibly not valid UTF-8; invalid sequences show as U+FFFD).
    static func quotedValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        quotedValue(String(decoding: bytes.prefix(maximumShownCharacters * 4 + 4), as: UTF8.self))
    }

    /// A region identifier: `"stop-1"`.
    static func quotedIdentifier(_ identifier: String) -> String {
        "\"" + escaped(identifier) + "\""
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown == maximumShownCharacters {
                result += "…"
                break
            }
            shown += 1
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
