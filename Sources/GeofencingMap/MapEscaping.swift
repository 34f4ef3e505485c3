import GeofencingEvents

/// Escaping for the three places where data (titles, region identifiers) enters the page. Region identifiers and
/// titles come from fence files and logs written by others: none of them may change the page's structure.
enum MapEscaping {
    /// Text content of an HTML element (RCDATA such as <title> included): `&`, `<` and `>` as character references.
    static func htmlText(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// The value of a double-quoted HTML attribute: as text, plus both quote characters.
    static func htmlAttribute(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A JSON string literal that is safe inside a `<script>` element: `JSONText.quoted` (quotes, backslashes,
    /// control characters, U+2028, U+2029 and U+FEFF escaped), then every `<`, `>` and `&` as `\u003c`, `\u003e`,
    /// `\u0026`, so no `</script>`, `<!--` or `<script` can appear in the element's text whatever the string holds.
    /// The result is still valid JSON meaning exactly `text`.
    static func scriptJSONString(_ text: String) -> String {
        let quoted = JSONText.quoted(text)
        // JSONText.quoted leaves these three characters as they are and never produces them inside an escape
        // sequence, so replacing every occurrence is exact.
        var out = ""
        out.reserveCapacity(quoted.utf8.count)
        for character in quoted.unicodeScalars {
            switch character {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
