import Foundation

/// The pieces of JSON text the project writes by hand, so that key order and number formats are fixed: the event
/// lines, the GeoJSON fence files, the map's embedded data, and names quoted in messages.
public enum JSONText {
    /// A JSON string literal (RFC 8259 section 7): quote and backslash escaped, `\n`, `\r`, `\t` as such, the other
    /// control characters, U+2028, U+2029 and U+FEFF as `\u` and four lowercase hex digits; everything else as it is.
    /// The project's one string escaper.
    ///
    /// U+2028 and U+2029: JavaScript before ES2019 takes them for line ends inside a string literal. U+FEFF:
    /// Foundation's JSONSerialization drops a raw one that starts a string or follows an escape, as if it were a byte
    /// order mark (fuzzing found fence identifiers that changed on the way back); escaped, it is kept.
    /// The result never contains `<`, `>` or `&` inside an escape sequence, so a layer for HTML may replace them.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar == "\u{FEFF}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A finite number with a fixed number of decimals, trailing zeros removed ("-3.2", "153.0912345", "0");
    /// null for NaN or infinity, which JSON cannot carry.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
