// An event's JSON line: the exact text written, and the record read back from it.
import Foundation
import Geofencing
import GeofencingEvents
import Testing

@Suite("Event lines")
struct EventLineTests {
    private static let enter = EventRecord(
        sequence: 17, kind: .enter, region: "stop-1234", time: Date(timeIntervalSince1970: 1_204_583_113),
        latitude: -27.5712345, longitude: 153.0912345, distance: -3.2, state: .inside)

    @Test("the line the CLI's interface fixes, and the error line")
    func text() {
        #expect(Self.enter.jsonLine == #"{"seq":17,"type":"enter","region":"stop-1234","time":"2008-03-03T22:25:13Z","#
            + #""lat":-27.5712345,"lon":153.0912345,"distance_m":-3.2,"state":"inside","inferred":false,"#
            + #""interpolated":false}"#)
        var lost = Self.enter
        lost.kind = .state
        lost.state = .unknown
        lost.distance = nil
        lost.time = Date(timeIntervalSince1970: 1_204_583_113.25)
        lost.inferred = true
        #expect(lost.jsonLine.contains(#""time":"2008-03-03T22:25:13.250Z","#))
        #expect(lost.jsonLine.hasSuffix(#""distance_m":null,"state":"unknown","inferred":true,"interpolated":false}"#))
        #expect(EventRecord.errorLine(region: nil, message: "gpsd: \"gone\"")
            == #"{"type":"error","region":null,"message":"gpsd: \"gone\""}"#)
        #expect(EventRecord.errorLine(region: "a\u{FEFF}", message: "m")
            == #"{"type":"error","region":"a\ufeff","message":"m"}"#)
    }

    @Test("read back equal, whatever the region's identifier holds")
    func roundTrip() throws {
        let identifiers = ["stop-1234", "\u{FEFF}1", "a\n\u{FEFF}b", "line\u{2028}separator\u{2029}", "\u{0}\u{1F}\"\\",
                           "</script><script>alert(1)</script>", "ünïcödé 🚏 站"]
        for (index, identifier) in identifiers.enumerated() {
            let kind = EventRecord.Kind.allCases[index % EventRecord.Kind.allCases.count]
            let record = EventRecord(
                sequence: UInt64(index) * 1_000_000_007, kind: kind, region: identifier,
                time: Date(timeIntervalSince1970: 1_204_583_113 + Double(index) * 0.125), latitude: -85 + Double(index),
                longitude: 179.9999999, distance: index % 2 == 0 ? nil : 12.5,
                state: index % 2 == 0 ? .outside : .inside, inferred: index % 3 == 0, interpolated: index % 3 == 1)
            #expect(try EventRecord.parse(jsonLine: record.jsonLine) == record, "\(record.jsonLine)")
        }
    }

    @Test("crossed_at: last, to the millisecond, only when the event has one; read back; null or absent is none")
    func crossedAt() throws {
        var enter = Self.enter
        enter.crossedAt = Date(timeIntervalSince1970: 1_204_583_111.417)
        #expect(enter.jsonLine == #"{"seq":17,"type":"enter","region":"stop-1234","time":"2008-03-03T22:25:13Z","#
            + #""lat":-27.5712345,"lon":153.0912345,"distance_m":-3.2,"state":"inside","inferred":false,"#
            + #""interpolated":false,"crossed_at":"2008-03-03T22:25:11.417Z"}"#)
        let read = try #require(try EventRecord.parse(jsonLine: enter.jsonLine))
        #expect(abs(read.crossedAt!.timeIntervalSince(enter.crossedAt!)) < 1e-6)
        #expect(!Self.enter.jsonLine.contains("crossed_at"), "absent, not null, without a crossing")
        let null = Self.enter.jsonLine.dropLast() + #","crossed_at":null}"#
        #expect(try EventRecord.parse(jsonLine: null) == Self.enter)
        for (bad, message) in [(#""yesterday""#, #"field crossed_at: "yesterday" is not an ISO 8601 UTC time"#),
                               ("17", "field crossed_at: not a string")] {
            let line = Self.enter.jsonLine.dropLast() + #","crossed_at":"# + bad + "}"
            let error = #expect(throws: EventLineError.self) { try EventRecord.parse(jsonLine: line) }
            #expect(error?.description == message)
        }
    }

    @Test("blank lines and error lines hold no event; keys in any order, optional ones missing")
    func lenientReading() throws {
        #expect(try EventRecord.parse(jsonLine: "") == nil)
        #expect(try EventRecord.parse(jsonLine: " \t\r") == nil)
        #expect(try EventRecord.parse(jsonLine: EventRecord.errorLine(region: "x", message: "y")) == nil)
        let shuffled = #"{"state":"inside","lon":153.0912345,"lat":-27.5712345,"region":"stop-1234","#
            + #""time":"2008-03-03T23:25:13+01:00","distance_m":-3.2,"type":"enter","seq":17,"extra":[1]}"#
        #expect(try EventRecord.parse(jsonLine: shuffled + "\r") == Self.enter)
    }

    @Test("a malformed line names what is wrong")
    func errors() {
        let line = Self.enter.jsonLine
        let cases: [(String, EventLineError, String)] = [
            ("[1]", .notAnObject, "not a JSON object"),
            ("{\"seq\":", .notAnObject, "not a JSON object"),
            (line.replacingOccurrences(of: #""region":"stop-1234","#, with: ""), .missingField("region"),
             "field region missing or of the wrong type"),
            (line.replacingOccurrences(of: #""seq":17"#, with: #""seq":"17""#), .missingField("seq"),
             "field seq missing or of the wrong type"),
            (line.replacingOccurrences(of: #""enter""#, with: #""arrive""#),
             .badField("type", "unknown event type \"arrive\""), "field type: unknown event type \"arrive\""),
            (line.replacingOccurrences(of: #""inside""#, with: #""in""#), .badField("state", "unknown state \"in\""),
             "field state: unknown state \"in\""),
            (line.replacingOccurrences(of: "2008-03-03T22:25:13Z", with: "2008-02-30T22:25:13Z"),
             .badField("time", "\"2008-02-30T22:25:13Z\" is not an ISO 8601 UTC time"),
             "field time: \"2008-02-30T22:25:13Z\" is not an ISO 8601 UTC time"),
        ]
        for (text, error, message) in cases {
            #expect(throws: error, "\(text)") { try EventRecord.parse(jsonLine: text) }
            #expect(error.description == message)
        }
    }
}
