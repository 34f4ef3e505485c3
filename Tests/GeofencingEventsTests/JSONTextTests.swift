// The one JSON string escaper: what it escapes, how, and that JSONSerialization reads back exactly what was given.
import Foundation
import GeofencingEvents
import Testing

@Suite("JSON text")
struct JSONTextTests {
    @Test("quotes, backslashes and the short escapes")
    func shortEscapes() {
        #expect(JSONText.quoted("") == #""""#)
        #expect(JSONText.quoted(#"a "b" \c"#) == #""a \"b\" \\c""#)
        #expect(JSONText.quoted("\n\r\t") == #""\n\r\t""#)
    }

    @Test("every other control character as \\u00xx, lowercase")
    func controlCharacters() {
        for value in UInt32(0)..<0x20 where ![0x09, 0x0A, 0x0D].contains(value) {
            let hex = String(value, radix: 16)
            let expected = "\"\\u" + String(repeating: "0", count: 4 - hex.count) + hex + "\""
            #expect(JSONText.quoted(String(Unicode.Scalar(value)!)) == expected)
        }
        #expect(JSONText.quoted("\u{1F}") == #""\u001f""#)
    }

    @Test("U+2028, U+2029 and U+FEFF escaped; DEL, other non-ASCII and < > & as they are")
    func separatorsAndByteOrderMark() {
        #expect(JSONText.quoted("\u{2028}") == #""\u2028""#)
        #expect(JSONText.quoted("\u{2029}") == #""\u2029""#)
        #expect(JSONText.quoted("\u{FEFF}") == #""\ufeff""#)
        #expect(JSONText.quoted("a\u{FEFF}b\u{2028}c") == #""a\ufeffb\u2028c""#)
        #expect(JSONText.quoted("\u{7F}ünïcödé 🚏 站 \u{200B}") == "\"\u{7F}ünïcödé 🚏 站 \u{200B}\"")
        #expect(JSONText.quoted("</script>&") == "\"</script>&\"")
    }

    @Test("read back by JSONSerialization as exactly the string given, U+FEFF at the start and after escapes")
    func roundTripThroughJSONSerialization() throws {
        let strings = [
            "\u{FEFF}1", "a\n\u{FEFF}b", "\u{FEFF}\u{FEFF}", "x\u{FEFF}", "sate \"\u{1}\u{1}\u{FEFF}id,id,\n\u{1}A\"",
            "line\u{2028}separator\u{2029}paragraph", "back\\slash \"quoted\" &amp; tab\t", "\u{0}\u{1F}\u{7F}",
            "ünïcödé 🚏 站",
        ]
        for string in strings {
            let text = "[" + JSONText.quoted(string) + "]"
            let read = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]
            #expect(read == [string], "\(text)")
        }
    }

    @Test func fixedDecimals() {
        #expect(JSONText.fixed(-3.2, decimals: 2) == "-3.2")
        #expect(JSONText.fixed(153.0912345, decimals: 7) == "153.0912345")
        #expect(JSONText.fixed(-0.000_000_01, decimals: 7) == "0")
        #expect(JSONText.fixed(12, decimals: 3) == "12")
        #expect(JSONText.fixed(.nan, decimals: 2) == "null")
        #expect(JSONText.fixed(-.infinity, decimals: 2) == "null")
    }
}
