/// Text in UTF-16 or UTF-32, which every reader of this module refuses by one rule with one message, whether or not
/// the text starts with a byte order mark: the readers read UTF-8 only (Foundation's parsers would guess a wide
/// encoding from the byte pattern of some inputs and not of others, so such a file was read or refused by accident).
///
/// Recognised by the byte order mark (FF FE, FE FF, FF FE 00 00, 00 00 FE FF), or else by the pattern of zero bytes
/// that text beginning with an ASCII character has in these encodings (as RFC 4627 section 3 detects JSON's
/// encoding): `00 xx 00 xx` UTF-16BE, `xx 00 xx 00` UTF-16LE, `00 00 00 xx` UTF-32BE, `xx 00 00 00` UTF-32LE, where
/// each xx is a printable ASCII character or white space (so binary data with zero bytes stays binary data).
enum WideTextEncoding: String {
    case utf16LittleEndian = "UTF-16LE"
    case utf16BigEndian = "UTF-16BE"
    case utf32LittleEndian = "UTF-32LE"
    case utf32BigEndian = "UTF-32BE"

    /// The wide encoding `bytes` start in, or nil (UTF-8, or something else for the reader to judge).
    static func detect(_ bytes: some Collection<UInt8>) -> WideTextEncoding? {
        let head = Array(bytes.prefix(4))
        func starts(_ prefix: [UInt8]) -> Bool { head.starts(with: prefix) }
        if starts([0xFF, 0xFE, 0x00, 0x00]) { return .utf32LittleEndian }
        if starts([0x00, 0x00, 0xFE, 0xFF]) { return .utf32BigEndian }
        if starts([0xFF, 0xFE]) { return .utf16LittleEndian }
        if starts([0xFE, 0xFF]) { return .utf16BigEndian }
        guard head.count >= 2 else { return nil }
        let text = { (byte: UInt8) in (0x20...0x7E).contains(byte) || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        if head.count == 4 {
            if head[0] == 0, head[1] == 0, head[2] == 0, text(head[3]) { return .utf32BigEndian }
            if text(head[0]), head[1] == 0, head[2] == 0, head[3] == 0 { return .utf32LittleEndian }
            if head[0] == 0, text(head[1]), head[2] == 0, text(head[3]) { return .utf16BigEndian }
            if text(head[0]), head[1] == 0, text(head[2]), head[3] == 0 { return .utf16LittleEndian }
            return nil
        }
        if head[0] == 0, text(head[1]) { return .utf16BigEndian }
        if text(head[0]), head[1] == 0 { return .utf16LittleEndian }
        return nil
    }

    /// The one message: "the file is UTF-16LE text; <what> are read as UTF-8 only (convert it: iconv -f UTF-16LE
    /// -t UTF-8)".
    func refusal(_ what: String) -> String {
        "the file is \(rawValue) text; \(what) are read as UTF-8 only (convert it: iconv -f \(rawValue) -t UTF-8)"
    }
}
