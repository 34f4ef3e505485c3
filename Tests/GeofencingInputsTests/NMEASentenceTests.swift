// The sentence layer: checksums, prefixes, what is ignored and what is bad.
import Foundation
import Testing
@testable import GeofencingInputs

@Suite("NMEA sentence layer")
struct NMEASentenceTests {
    private func classify(_ text: String) -> NMEALine {
        NMEALine(bytes: Array(text.utf8))
    }

    @Test func validSentenceSplitsIntoTalkerTypeAndFields() throws {
        guard case .sentence(let sentence) = classify("$GPGLL,5229.6021,N,00517.7879,E,114941,A,A*44") else {
            Issue.record("not read as a sentence")
            return
        }
        #expect(sentence.talker == "GP")
        #expect(sentence.type == "GLL")
        #expect(sentence[field: 1] == "5229.6021")
        #expect(sentence[field: 7] == "A")
        #expect(sentence[field: 8] == "", "fields past the end read as empty")
    }

    @Test func checksumIsVerified() {
        #expect(classify("$GPGLL,5229.6021,N,00517.7879,E,114941,A,A*45") == .checksumMismatch(
            "checksum 45 does not match content (computed 44): $GPGLL,5229.6021,N,00..."))
        if case .sentence = classify("$GPGLL,5229.6021,N,00517.7879,E,114941,A,A*44") {} else {
            Issue.record("correct checksum rejected")
        }
    }

    @Test func lowercaseChecksumDigitsAreAccepted() {
        let sentence = "$GPRMC,222437.000,A,2734.33926,S,15305.44310,E,33.9,157.8,030308,11.2,W,A*0f"
        if case .sentence = classify(sentence) {} else {
            Issue.record("lowercase hex rejected")
        }
    }

    @Test func textBeforeTheLastDollarIsIgnored() {
        let sentence = NMEATestText.sentence("GPZDA,114941,15,08,2016,-02,00")
        for prefix in ["1471261781.123 ", "garbage$GPRMC,1234", "avnav: "] {
            if case .sentence(let parsed) = classify(prefix + sentence) {
                #expect(parsed.type == "ZDA")
            } else {
                Issue.record("prefix \(prefix) hid the sentence")
            }
        }
    }

    @Test(arguments: ["", "# Name: BT-451", "avnav_server 0.6.0", "!AIVDM,1,1,,A,4020tmAumg7a:Pw=A8NuR5700H69,0*24", "   "])
    func nonSentencesAreIgnored(_ line: String) {
        #expect(classify(line) == .ignored)
    }

    @Test func truncatedAndNoisyLinesAreMalformed() {
        #expect(classify("$GPRMC,222437.000,A,2734.33926,S,153") == .malformed("no checksum (truncated sentence?)"))
        #expect(classify("$GPGLL,5229.6021,N*4") == .malformed("checksum is not two hex digits"))
        #expect(classify("$GPGLL,5229.6021,N*44xx") == .malformed("checksum is not two hex digits"))
        #expect(NMEALine(bytes: [0x24, 0x47, 0x50, 0x00, 0xFF, 0x2A, 0x30, 0x30]) == .malformed("binary noise inside the sentence"))
        #expect(NMEALine(bytes: [0x01, 0x02, 0xFE, 0x7F]) == .malformed("binary data, no sentence"))
        #expect(classify(NMEATestText.sentence("gp,1,2")) == .malformed(
            "address field \"gp\" is not a talker and sentence type"))
    }

    @Test func trailingWhitespaceIsTolerated() {
        if case .sentence = classify(NMEATestText.sentence("GPZDA,114941,15,08,2016,-02,00") + "  \t") {} else {
            Issue.record("trailing blanks rejected")
        }
    }

    @Test func proprietarySentencesKeepTheirWholeAddress() {
        guard case .sentence(let sentence) = classify(NMEATestText.sentence("PGRME,15.0,M,45.0,M,25.0,M")) else {
            Issue.record("proprietary sentence not read")
            return
        }
        #expect(sentence.talker == "")
        #expect(sentence.type == "PGRME")
    }
}
