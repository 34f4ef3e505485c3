import Foundation

/// Refuses the GPX inputs on which FoundationXML's XMLParser crashes the process or takes quadratic time instead of
/// reporting an error, before the parser sees them, and UTF-16 and UTF-32 text (`WideTextEncoding`, refused with or
/// without a byte order mark as by the other readers). The crashes were found by fuzzing (scripts/fuzz-inputs.sh):
///
/// - Bytes that are not valid UTF-8. libxml2 passes the element and attribute names of a document it reads as UTF-8
///   to XMLParser undecoded, and XMLParser force-unwraps their decoding, so one stray byte in a tag name
///   (`<\u{FF}rkpt`) traps. Which documents libxml2 reads as UTF-8 cannot be told safely from outside: it falls back
///   to UTF-8 when the XML declaration is malformed, or names UTF-16 without a byte order mark. Valid UTF-8 is safe
///   whatever libxml2 makes of it (its conversions from other encodings produce valid UTF-8), so that is what GPX
///   input must be; GPX files are UTF-8 in practice (a Latin-1 or UTF-16 file can be converted with iconv).
/// - A processing instruction without data (`<?target?>`, also a bare `<?xml?>`): libxml2 reports its data as a null
///   pointer and XMLParser takes its length (a segmentation fault). `<?target ?>` and `<?target data?>` are fine.
///   The check also refuses such text inside a comment or CDATA section, where it is harmless: no GPX writer puts it
///   there, and telling those apart would take an XML parser of its own.
enum GPXParserGuard {
    /// - Throws: `TrackReadError` naming `source` and the line of the first byte that is not valid UTF-8, or of the
    ///   first processing instruction without data.
    static func check(_ data: Data, source: String) throws(TrackReadError) {
        // libxml2 reads UTF-16 without a byte order mark by its zero bytes (valid UTF-8): one rule refuses both.
        if let wide = WideTextEncoding.detect(data) {
            throw TrackReadError(source: source, message: wide.refusal("tracks"))
        }
        if let offset = firstInvalidUTF8Offset(data) {
            let byte = data[data.index(data.startIndex, offsetBy: offset)]
            throw TrackReadError(source: source, line: line(at: offset, in: data),
                                 message: "byte 0x\(String(byte, radix: 16, uppercase: true)) is not valid UTF-8 "
                                     + "(GPX is read as UTF-8 only)")
        }
        if let (offset, name) = firstElementWithTooManyAttributes(data) {
            throw TrackReadError(source: source, line: line(at: offset, in: data),
                                 message: "the element <\(name)> has more than \(maximumAttributesPerElement) "
                                     + "attributes (a GPX element has a handful)")
        }
        if let (offset, target) = firstProcessingInstructionWithoutData(data) {
            throw TrackReadError(source: source, line: line(at: offset, in: data),
                                 message: "the processing instruction <?\(target)?> has no data, which XMLParser "
                                     + "cannot take (write <?\(target) ?> or remove it)")
        }
    }

    /// The most attributes (namespace declarations included) one element may have. libxml2 checks each attribute
    /// of an element against all the earlier ones, quadratic in their number; with at most this many, and each
    /// attribute taking at least 4 bytes (` a=""`), that work is linear in the document's size.
    static let maximumAttributesPerElement = 256

    /// The offset and name of the first start tag with more than `maximumAttributesPerElement` attributes, counted as
    /// the `=` signs outside quoted values. Comments, CDATA sections, processing instructions, declarations and end
    /// tags are passed over whole. Linear: every byte is looked at a bounded number of times.
    private static func firstElementWithTooManyAttributes(_ data: Data) -> (offset: Int, name: String)? {
        let bytes = [UInt8](data)
        var index = 0
        /// The index just past the first `terminator` at or after `from` (or the end).
        func after(_ terminator: [UInt8], from: Int) -> Int {
            var position = from
            while position + terminator.count <= bytes.count {
                if bytes[position] == terminator[0], bytes[position..<(position + terminator.count)].elementsEqual(terminator) {
                    return position + terminator.count
                }
                position += 1
            }
            return bytes.count
        }
        while index + 1 < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let next = bytes[index + 1]
            let rest = bytes[(index + 1)...]
            if rest.starts(with: Array("!--".utf8)) {
                index = after(Array("-->".utf8), from: index + 4)
            } else if rest.starts(with: Array("![CDATA[".utf8)) {
                index = after(Array("]]>".utf8), from: index + 9)
            } else if next == UInt8(ascii: "?") {
                index = after(Array("?>".utf8), from: index + 2)
            } else if next == UInt8(ascii: "!") || next == UInt8(ascii: "/") {
                index = after(Array(">".utf8), from: index + 2)
            } else {
                let start = index
                var quote: UInt8?
                var attributes = 0
                index += 1
                while index < bytes.count {
                    let byte = bytes[index]
                    index += 1
                    if let open = quote {
                        if byte == open { quote = nil }
                    } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        quote = byte
                    } else if byte == UInt8(ascii: "=") {
                        attributes += 1
                        if attributes > maximumAttributesPerElement {
                            let name = bytes[(start + 1)...].prefix {
                                !isWhitespace($0) && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: ">")
                            }
                            return (start, InputText.shown(name))
                        }
                    } else if byte == UInt8(ascii: ">") {
                        break
                    }
                }
            }
        }
        return nil
    }

    /// The offset of the first byte that does not start a valid UTF-8 sequence, or nil when all of `data` is valid.
    private static func firstInvalidUTF8Offset(_ data: Data) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }

    /// The offset and target of the first `<?target?>`: a target (anything up to white space) followed directly by
    /// `?>`. Linear: every `<?` is scanned only up to its target's end.
    private static func firstProcessingInstructionWithoutData(_ data: Data) -> (offset: Int, target: String)? {
        let bytes = [UInt8](data)
        let question = UInt8(ascii: "?")
        let closesHere = { (index: Int) in
            bytes[index] == question && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: ">")
        }
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == question else {
                index += 1
                continue
            }
            var end = index + 2
            while end < bytes.count, !isWhitespace(bytes[end]), !closesHere(end) { end += 1 }
            if end < bytes.count, closesHere(end) {
                return (index, InputText.shown(bytes[(index + 2)..<end]))
            }
            index = end
        }
        return nil
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    /// The 1-based line of `offset`.
    private static func line(at offset: Int, in data: Data) -> Int {
        data.prefix(offset).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }
}
