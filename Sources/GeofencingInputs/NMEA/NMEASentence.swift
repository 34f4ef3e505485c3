/// One NMEA 0183 sentence whose checksum matched: `$GPRMC,222437.000,A,...*0F` has talker "GP", type "RMC" and the
/// fields after the address.
struct NMEASentence: Sendable, Hashable {
    /// The two-letter talker identifier ("GP", "GN", "BD", ...).
    let talker: String
    /// The sentence formatter ("RMC", "GGA", ...).
    let type: String
    /// The data fields, without the address field and without the checksum.
    let fields: [Substring]

    /// Data field `number`, counted from 1 as NMEA 0183 tables do; empty when the sentence is shorter (receivers drop
    /// trailing empty fields, and older protocol versions have fewer fields).
    subscript(field number: Int) -> Substring {
        number >= 1 && number <= fields.count ? fields[number - 1] : ""
    }
}

/// What one line of a log turned out to be.
enum NMEALine: Equatable {
    /// A sentence with a valid checksum.
    case sentence(NMEASentence)
    /// Not meant as an NMEA sentence: an empty line, a comment, a text banner, an AIS `!AIVDM` line.
    case ignored
    /// A sentence whose checksum does not match its content.
    case checksumMismatch(String)
    /// Something that tried to be a sentence and failed: binary noise, a truncated line, a malformed address.
    case malformed(String)

    /// Classifies one line (without its terminator).
    ///
    /// Lines starting with `#` are comments. Text before the last `$` is ignored, so logger prefixes (timestamps, "avnav_server" banners) and a truncated
    /// sentence that lost its line end do not hide the sentence after them. The checksum is required: a sentence
    /// cut short usually loses it, and a sentence without one cannot be told apart from a cut one.
    init(bytes line: some Collection<UInt8>) {
        let bytes = Array(line)
        if bytes.first == UInt8(ascii: "#") {      // comment lines, as in gpsd's regression logs
            self = .ignored
            return
        }
        guard let dollar = bytes.lastIndex(of: UInt8(ascii: "$")) else {
            self = bytes.allSatisfy(Self.isText) ? .ignored : .malformed("binary data, no sentence")
            return
        }
        var end = bytes.endIndex
        while end > dollar, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        let sentence = bytes[dollar..<end]
        guard sentence.allSatisfy(Self.isText) else {
            self = .malformed("binary noise inside the sentence")
            return
        }
        guard let star = sentence.firstIndex(of: UInt8(ascii: "*")) else {
            self = .malformed("no checksum (truncated sentence?)")
            return
        }
        let digits = sentence[(star + 1)...]
        guard digits.count == 2, let expected = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else {
            self = .malformed("checksum is not two hex digits")
            return
        }
        let body = sentence[(dollar + 1)..<star]
        let actual = body.reduce(UInt8(0), ^)
        let text = String(decoding: body, as: UTF8.self)
        guard actual == expected else {
            let found = String(actual, radix: 16, uppercase: true)
            self = .checksumMismatch("checksum \(String(decoding: digits, as: UTF8.self)) does not match content "
                + "(computed \(found.count == 1 ? "0" + found : found)): $\(text.prefix(20))...")
            return
        }
        var fields = text.split(separator: ",", omittingEmptySubsequences: false)
        let address = fields.removeFirst()
        guard address.count >= 3, address.utf8.allSatisfy(Self.isAddressCharacter) else {
            self = .malformed("address field \(InputText.doubleQuoted(address)) is not a talker and sentence type")
            return
        }
        // Proprietary sentences ($PGRME, $PUBX) have "P" and a maker code instead of a talker; keep them whole as
        // the type so that they are reported as unsupported rather than misread.
        let talkerLength = address.first == "P" ? 0 : 2
        self = .sentence(NMEASentence(
            talker: String(address.prefix(talkerLength)), type: String(address.dropFirst(talkerLength)),
            fields: fields))
    }

    private static func isText(_ byte: UInt8) -> Bool {
        (0x20...0x7E).contains(byte) || byte == UInt8(ascii: "\t")
    }

    private static func isAddressCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
