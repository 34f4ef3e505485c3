/// How deep a JSON text read so far is inside objects and arrays, outside of its strings: tells whether a gpsd
/// report begun on one line is complete or goes on on the next. Only the structure is followed (braces, brackets,
/// strings with their escapes); whether the text is valid JSON is for the decoder to say.
struct GPSDJSONNesting {
    private var depth = 0
    private var inString = false
    private var afterBackslash = false
    private var sawOpening = false

    /// The first object or array has been opened and closed again.
    var isClosed: Bool { sawOpening && depth <= 0 }

    mutating func scan(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            if inString {
                if afterBackslash {
                    afterBackslash = false
                } else if byte == UInt8(ascii: "\\") {
                    afterBackslash = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                sawOpening = true
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
            if isClosed { return }
        }
    }

    /// Whether a line that begins with `byte` can be the inside or the end of an object opened on an earlier line.
    static func continuesAnObject(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "}")
            || byte == UInt8(ascii: "]")
    }
}
