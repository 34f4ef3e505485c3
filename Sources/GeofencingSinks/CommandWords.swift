import GeofencingEvents

/// Splits a `--exec CMD` string into argv, the way sh splits words, without anything else sh does.
///
/// - Whitespace (space, tab, newline) outside quotes separates words.
/// - `'...'`: everything up to the next `'` is literal.
/// - `"..."`: literal, except that a backslash before `$`, `` ` ``, `"` or `\` stands for that character and a
///   backslash before a newline removes both; before anything else the backslash is kept (as in sh).
/// - Outside quotes a backslash makes the next character literal; backslash-newline removes both.
/// - Quotes join with their neighbours (`a'b c'd` is one word `ab cd`); `''` is an empty word.
/// - No expansion of any kind: `$`, `` ` ``, `*`, `?`, `~`, `;`, `|`, `&`, `<`, `>`, `#`, `(`, `)` are plain
///   characters, so `a;b` is one word and `$(touch x)` runs nothing.
///
/// Throws on an unterminated quote, a trailing lone backslash, or a command with no words.
public enum CommandWords {
    public static func split(_ command: String) throws(SinkError) -> [String] {
        var words: [String] = []
        var word = ""
        // A word has begun even if it is still empty: `''` gives an empty word.
        var inWord = false
        var scalars = command.unicodeScalars.makeIterator()

        func fail(_ message: String) -> SinkError {
            SinkError(sink: "exec", message: "cannot split the command \(JSONText.quoted(command)): \(message)")
        }

        while let scalar = scalars.next() {
            switch scalar {
            case " ", "\t", "\n":
                if inWord {
                    words.append(word)
                    word = ""
                    inWord = false
                }
            case "'":
                inWord = true
                var closed = false
                while let inner = scalars.next() {
                    if inner == "'" {
                        closed = true
                        break
                    }
                    word.unicodeScalars.append(inner)
                }
                if !closed { throw fail("unterminated single quote") }
            case "\"":
                inWord = true
                var closed = false
                while let inner = scalars.next() {
                    if inner == "\"" {
                        closed = true
                        break
                    }
                    if inner == "\\" {
                        guard let escaped = scalars.next() else { break }
                        switch escaped {
                        case "$", "`", "\"", "\\": word.unicodeScalars.append(escaped)
                        case "\n": break
                        default: word.unicodeScalars.append(contentsOf: ["\\", escaped])
                        }
                        continue
                    }
                    word.unicodeScalars.append(inner)
                }
                if !closed { throw fail("unterminated double quote") }
            case "\\":
                guard let escaped = scalars.next() else { throw fail("it ends in a lone backslash") }
                if escaped != "\n" {
                    inWord = true
                    word.unicodeScalars.append(escaped)
                }
            default:
                inWord = true
                word.unicodeScalars.append(scalar)
            }
        }
        if inWord { words.append(word) }
        if words.isEmpty { throw fail("it has no words") }
        return words
    }
}
