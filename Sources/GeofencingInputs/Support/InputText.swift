/// How text taken from an input (a fence file's cell or JSON value, a GPX attribute, an NMEA field, a gpsd JSON
/// value) is shown inside an error or warning: control characters escaped, so that a newline or a terminal escape in
/// a file cannot split a message or drive the terminal, and cut after `maximumShownCharacters` Unicode scalars with
/// "…", so that one runaway value (a number of 5,000 digits, a name of a megabyte) cannot flood a message, a log or a
/// terminal. Every reader of this module quotes input through here.
enum InputText {
    /// Values longer than this many Unicode scalars are cut and end in "…".
    static let maximumShownCharacters = 40

    /// A message of another parser that may quote its input (JSONDecoder's "Number 1e400... is not representable")
    /// is cut after this many scalars.
    static let maximumShownMessageCharacters = 200

    /// `text` escaped and cut after `limit` scalars, without quotes.
    static func shown(_ text: some StringProtocol, limit: Int = maximumShownCharacters) -> String {
        var result = ""
        var shownCount = 0
        for scalar in text.unicodeScalars {
            if shownCount == limit {
                result += "…"
                break
            }
            shownCount += 1
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Bytes that should be UTF-8 (invalid sequences show as U+FFFD), escaped and cut; only the first bytes are
    /// decoded, so a value of any length costs the same.
    static func shown(_ bytes: some Collection<UInt8>) -> String {
        shown(String(decoding: bytes.prefix(maximumShownCharacters * 4 + 4), as: UTF8.self))
    }

    /// `"text"`, shown as above: the form of the track readers' messages.
    static func doubleQuoted(_ text: some StringProtocol) -> String {
        "\"" + shown(text) + "\""
    }
}
