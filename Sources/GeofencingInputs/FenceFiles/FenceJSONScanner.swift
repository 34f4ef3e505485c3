/// A JSON syntax error: the byte offset where it was found (nil when the text ends too early to say), and the reason
/// in the words Foundation's JSONSerialization uses, so messages read as they did when that parser read fence files.
struct FenceJSONSyntaxError: Error {
    var offset: Int?
    var reason: String
}

/// A strict RFC 8259 JSON reader over the bytes of a fence file, with no per-value work beyond what is asked:
/// `skipValue` checks a value without building anything; `value` builds one value's tree (`FenceJSONValue`).
///
/// - Strings: UTF-8 (checked), the escapes of RFC 8259 section 7, `\u` surrogate pairs joined; an unescaped control
///   character, a lone surrogate or an unknown escape is an error.
/// - Numbers: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; a number too large for a Double (1e400) is an
///   error, one too small becomes 0.
/// - Nesting: at most `maximumDepth` arrays and objects inside each other, so that neither this reader's recursion
///   nor a later one's can exhaust the stack.
/// - No trailing commas, nothing after the top-level value but white space (space, tab, LF, CR).
///
/// Offsets in reasons ("around character N") count from `start` (after a byte order mark), as Foundation counted.
struct FenceJSONScanner {
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private let start: Int
    /// The next byte to read.
    private(set) var position: Int
    private var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, start: Int) {
        self.bytes = bytes
        self.start = start
        self.position = start
    }

    // MARK: - Navigation for the document's walk

    /// Moves to `offset` (one found by an earlier walk over the same bytes).
    mutating func move(to offset: Int) {
        position = offset
    }

    /// The next byte after white space, without consuming it.
    mutating func peek() throws(FenceJSONSyntaxError) -> UInt8 {
        skipWhitespace()
        guard position < bytes.count else { throw Self.endOfFile }
        return bytes[position]
    }

    /// Consumes `byte` after white space, or fails at what stands there instead.
    mutating func expect(_ byte: UInt8) throws(FenceJSONSyntaxError) {
        guard try peek() == byte else { throw invalidValue(at: position) }
        position += 1
    }

    /// After a member or element: true when the container goes on (a comma was consumed), false when it ended
    /// (`close` was consumed).
    mutating func continues(until close: UInt8) throws(FenceJSONSyntaxError) -> Bool {
        let byte = try peek()
        position += 1
        if byte == UInt8(ascii: ",") { return true }
        if byte == close { return false }
        throw invalidValue(at: position - 1)
    }

    /// Opens an array or object whose first byte is next: counts the depth, and tells whether it is empty (then
    /// its closing byte has been consumed and the depth is counted back).
    mutating func open(_ close: UInt8) throws(FenceJSONSyntaxError) -> Bool {
        guard depth < Self.maximumDepth else {
            throw FenceJSONSyntaxError(
                offset: position, reason: "Too many nested arrays or dictionaries around character \(position + 1 - start).")
        }
        position += 1
        depth += 1
        if try peek() == close {
            position += 1
            depth -= 1
            return false
        }
        return true
    }

    /// Counts back the depth of a container whose closing byte `continues` has consumed.
    mutating func closed() {
        depth -= 1
    }

    /// An object member's key and its colon.
    mutating func key() throws(FenceJSONSyntaxError) -> String {
        guard try peek() == UInt8(ascii: "\"") else { throw invalidValue(at: position) }
        let key = try string()
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// Checks that only white space follows the top-level value.
    mutating func finish() throws(FenceJSONSyntaxError) {
        skipWhitespace()
        if position < bytes.count { throw invalidValue(at: position) }
    }

    // MARK: - Values

    /// Checks the next value and moves past it, building nothing.
    mutating func skipValue() throws(FenceJSONSyntaxError) {
        switch try peek() {
        case UInt8(ascii: "{"):
            guard try open(UInt8(ascii: "}")) else { return }
            repeat {
                _ = try key()
                try skipValue()
            } while try continues(until: UInt8(ascii: "}"))
            closed()
        case UInt8(ascii: "["):
            guard try open(UInt8(ascii: "]")) else { return }
            repeat { try skipValue() } while try continues(until: UInt8(ascii: "]"))
            closed()
        case UInt8(ascii: "\""):
            try skipString()
        default:
            _ = try scalar()
        }
    }

    /// Reads the next value into a tree.
    mutating func value() throws(FenceJSONSyntaxError) -> FenceJSONValue {
        switch try peek() {
        case UInt8(ascii: "{"):
            var object = FenceJSONObject()
            guard try open(UInt8(ascii: "}")) else { return .object(object) }
            object.members.reserveCapacity(8)  // a feature's objects have a few members: one allocation, not three
            repeat {
                let key = try key()
                object.members.append(FenceJSONObject.Member(key: key, value: try value()))
            } while try continues(until: UInt8(ascii: "}"))
            closed()
            return .object(object)
        case UInt8(ascii: "["):
            var items: [FenceJSONValue] = []
            guard try open(UInt8(ascii: "]")) else { return .array(items) }
            items.reserveCapacity(4)  // most arrays are positions
            repeat { items.append(try value()) } while try continues(until: UInt8(ascii: "]"))
            closed()
            return .array(items)
        case UInt8(ascii: "\""):
            return .string(try string())
        default:
            return try scalar()
        }
    }

    /// A literal or a number.
    private mutating func scalar() throws(FenceJSONSyntaxError) -> FenceJSONValue {
        switch bytes[position] {
        case UInt8(ascii: "t"):
            try literal("true")
            return .boolean(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .boolean(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            throw invalidValue(at: position)
        }
    }

    private mutating func literal(_ word: StaticString) throws(FenceJSONSyntaxError) {
        let letters = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for letter in letters {
            guard position < bytes.count else { throw Self.endOfFile }
            guard bytes[position] == letter else {
                // A word cut short by the end of its container reads as a cut-off file, as Foundation reports it.
                if Self.endsValue(bytes[position]) { throw Self.endOfFile }
                throw invalidValue(at: position)
            }
            position += 1
        }
    }

    /// The number's text; checked by the grammar, and refused when its value is not finite.
    private mutating func number() throws(FenceJSONSyntaxError) -> String {
        let first = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { throw Self.endOfFile }
        guard isDigit(position) else { throw invalidValue(at: position) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(position) {
                throw FenceJSONSyntaxError(
                    offset: position, reason: "Number with leading zero around character \(position - start).")
            }
        } else {
            while position < bytes.count, isDigit(position) { position += 1 }
        }
        var hasExponent = false
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            try digits()
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            hasExponent = true
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            try digits()
        }
        if position < bytes.count, !Self.endsValue(bytes[position]) { throw invalidValue(at: position) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<position]), as: UTF8.self)
        // Only an exponent or more than 308 digits can leave a Double's range.
        if hasExponent || position - first > 308, !(Double(text)?.isFinite ?? false) {
            throw FenceJSONSyntaxError(
                offset: first, reason: "Number \(FenceText.shortened(text)) is not representable in Swift.")
        }
        return text
    }

    /// One or more digits (after a decimal point or an exponent).
    private mutating func digits() throws(FenceJSONSyntaxError) {
        guard position < bytes.count else { throw Self.endOfFile }
        guard isDigit(position) else { throw invalidValue(at: position) }
        while position < bytes.count, isDigit(position) { position += 1 }
    }

    private func isDigit(_ index: Int) -> Bool {
        bytes[index] &- UInt8(ascii: "0") < 10
    }

    /// What may follow a number or literal: white space or the end of its container or member.
    private static func endsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ","),
             UInt8(ascii: "]"), UInt8(ascii: "}"):
            true
        default: false
        }
    }

    // MARK: - Strings

    private mutating func skipString() throws(FenceJSONSyntaxError) {
        var ignored: [UInt8] = []
        try scanString(decoding: false, into: &ignored)
    }

    /// The string at `position` (its opening quote), decoded.
    private mutating func string() throws(FenceJSONSyntaxError) -> String {
        let contentStart = position + 1
        var decoded: [UInt8] = []
        guard try scanString(decoding: true, into: &decoded) else {
            // Checked UTF-8 without escapes: the file's bytes are the string.
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<(position - 1)]), as: UTF8.self)
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Checks the string at `position` (its opening quote) and moves past its closing quote. When `decode` is set
    /// and the string has escapes, its decoded UTF-8 is appended to `output`. Returns whether it has escapes.
    @discardableResult
    private mutating func scanString(decoding decode: Bool, into output: inout [UInt8]) throws(FenceJSONSyntaxError)
        -> Bool {
        position += 1
        var segmentStart = position
        var hasEscapes = false
        var isASCII = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                if !isASCII { try checkUTF8(segmentStart..<position) }
                if byte == UInt8(ascii: "\"") {
                    if hasEscapes, decode { output.append(contentsOf: bytes[segmentStart..<position]) }
                    position += 1
                    return hasEscapes
                }
                hasEscapes = true
                if decode { output.append(contentsOf: bytes[segmentStart..<position]) }
                try escape(decoding: decode, into: &output)
                segmentStart = position
                isASCII = true
                continue
            }
            if byte < 0x20 {
                throw FenceJSONSyntaxError(
                    offset: position, reason: "Unescaped control character around character \(position - start).")
            }
            if byte >= 0x80 { isASCII = false }
            position += 1
        }
        throw Self.endOfFile
    }

    private func checkUTF8(_ range: Range<Int>) throws(FenceJSONSyntaxError) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[range].makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return
            case .error:
                throw FenceJSONSyntaxError(offset: range.lowerBound, reason: "Invalid UTF-8 sequence \(range.count) "
                    + "bytes starting from character \(range.lowerBound - start).")
            }
        }
    }

    /// The escape at `position` (its backslash); its UTF-8 is appended to `output` when `decode` is set.
    private mutating func escape(decoding decode: Bool, into output: inout [UInt8]) throws(FenceJSONSyntaxError) {
        let backslash = position
        position += 1
        guard position < bytes.count else { throw Self.endOfFile }
        let letter = bytes[position]
        position += 1
        let simple: UInt8? = switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            if decode { output.append(simple) }
            return
        }
        guard letter == UInt8(ascii: "u") else {
            throw FenceJSONSyntaxError(
                offset: backslash, reason: "Invalid escape sequence around character \(backslash - start).")
        }
        let unit = try hexQuad()
        var scalarValue = UInt32(unit)
        if unit & 0xFC00 == 0xD800 {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                  bytes[position + 1] == UInt8(ascii: "u")
            else { throw Self.missingLowSurrogate }
            position += 2
            let low = try hexQuad()
            guard low & 0xFC00 == 0xDC00 else { throw Self.missingLowSurrogate }
            scalarValue = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
        } else if unit & 0xFC00 == 0xDC00 {
            throw FenceJSONSyntaxError(offset: backslash, reason: "Unable to convert hex escape sequence (no high "
                + "character) to UTF8-encoded character.")
        }
        if decode, let scalar = Unicode.Scalar(scalarValue) {
            output.append(contentsOf: UTF8.encode(scalar)!)
        }
    }

    /// The four hex digits of a `\u` escape.
    private mutating func hexQuad() throws(FenceJSONSyntaxError) -> UInt16 {
        guard position + 4 <= bytes.count else { throw Self.endOfFile }
        var value: UInt16 = 0
        for index in position..<(position + 4) {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                let shown = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<(position + 4)]), as: UTF8.self)
                throw FenceJSONSyntaxError(offset: position, reason: "Invalid hex encoded sequence in "
                    + "\"\(FenceText.shortened(shown))\" at \(position - start).")
            }
            value = value << 4 | UInt16(digit)
        }
        position += 4
        return value
    }

    // MARK: - Errors

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): position += 1
            default: return
            }
        }
    }

    private func invalidValue(at offset: Int) -> FenceJSONSyntaxError {
        FenceJSONSyntaxError(offset: offset, reason: "Invalid value around character \(offset - start).")
    }

    private static let endOfFile = FenceJSONSyntaxError(offset: nil, reason: "Unexpected end of file during JSON parse.")

    private static let missingLowSurrogate = FenceJSONSyntaxError(
        offset: nil, reason: "Unexpected end of file during string parse (expected low-surrogate code point but did "
            + "not find one).")
}
