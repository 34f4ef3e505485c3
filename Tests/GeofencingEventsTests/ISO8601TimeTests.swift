// The one ISO 8601 time: what it writes, what it reads, and that the two agree.
import Foundation
import GeofencingEvents
import GeofencingInputs
import Testing

@Suite("ISO 8601 time")
struct ISO8601TimeTests {
    @Test("whole seconds without a fraction, milliseconds when there is one, rounded")
    func format() {
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: 1_204_583_113)) == "2008-03-03T22:25:13Z")
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: 1_204_583_113.5)) == "2008-03-03T22:25:13.500Z")
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: 1_204_583_113.0004)) == "2008-03-03T22:25:13Z")
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: 1_204_583_113.0006)) == "2008-03-03T22:25:13.001Z")
        // A fraction that rounds up to the next second carries into it, across a day and a year.
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: 1_230_767_999.9996)) == "2009-01-01T00:00:00Z")
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: -86_400)) == "1969-12-31T00:00:00Z")
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: -86_401)) == "1969-12-30T23:59:59Z")
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: 253_402_300_799.999)) == "9999-12-31T23:59:59.999Z")
    }

    /// The formatting that event lines, sinks and the map used before (Foundation's Gregorian calendar in UTC).
    private static func calendarFormat(_ time: Date) -> String {
        let seconds = time.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let millis = Int(((seconds - whole) * 1000).rounded())
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let wholeSeconds = millis == 1000 ? whole + 1 : whole
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: wholeSeconds))
        let base = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!,
            parts.minute!, parts.second!)
        return millis == 0 || millis == 1000 ? base + "Z" : base + String(format: ".%03dZ", millis)
    }

    @Test("the same text as Foundation's Gregorian calendar for times from 1583 (after its Julian cutover) to 9999")
    func agreesWithFoundationCalendar() {
        var generator = SplitMix64(seed: 0x150_8601)
        let first = -12_212_553_600.0, last = 253_402_300_799.0        // 1583-01-01, 9999-12-31T23:59:59
        for index in 0..<20_000 {
            var seconds = Double.random(in: first...last, using: &generator)
            switch index % 4 {
            case 0: seconds.round(.down)                                    // whole seconds
            case 1: seconds = (seconds * 1000).rounded() / 1000             // milliseconds
            case 2: seconds = seconds.rounded(.down) + 0.9995 + Double(index % 7) * 1e-5   // rounds to the next second
            default: break                                                  // any fraction
            }
            let time = Date(timeIntervalSince1970: seconds)
            if ISO8601Time.format(time) != Self.calendarFormat(time) {
                Issue.record("\(seconds): \(ISO8601Time.format(time)), not \(Self.calendarFormat(time))")
                return
            }
        }
    }

    @Test("parse reads back what format writes: whole seconds, milliseconds, before 1970 and before 1583")
    func roundTrip() throws {
        var generator = SplitMix64(seed: 0x8601)
        let first = -62_135_596_800.0, last = 253_402_300_799.0        // 0001-01-01, 9999-12-31T23:59:59
        for index in 0..<20_000 {
            let seconds = Double.random(in: first...last, using: &generator)
            let millis = index % 2 == 0 ? seconds.rounded(.down) : (seconds * 1000).rounded() / 1000
            let text = ISO8601Time.format(Date(timeIntervalSince1970: millis))
            let read = try #require(ISO8601Time.parse(text), "\(text)")
            #expect(abs(read.timeIntervalSince1970 - millis) < 1e-4, "\(text)")
            #expect(ISO8601Time.format(read) == text)
        }
        // The last day of a 400-year era and the leap days around it, which random times rarely hit.
        for text in ["2000-02-29T00:00:00Z", "2000-02-29T23:59:59.999Z", "2000-03-01T00:00:00Z", "1600-02-29T12:00:00Z",
                     "1900-02-28T23:59:59Z", "1900-03-01T00:00:00Z", "2400-02-29T00:00:00Z"] {
            #expect(ISO8601Time.parse(text).map(ISO8601Time.format) == text)
        }
        #expect(ISO8601Time.parse("1500-01-01T00:00:00Z")?.timeIntervalSince1970 == -14_831_769_600)
        #expect(ISO8601Time.format(Date(timeIntervalSince1970: -14_831_769_600)) == "1500-01-01T00:00:00Z")
    }

    @Test func parse() {
        #expect(ISO8601Time.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(ISO8601Time.parse("2027-10-18T22:24:38.000Z") == Date(timeIntervalSince1970: 1_823_898_278))
        #expect(ISO8601Time.parse("2020-12-18T07:15:50+01:00") == ISO8601Time.parse("2020-12-18T06:15:50Z"))
        #expect(ISO8601Time.parse("2020-12-18T05:45:50-0030") == ISO8601Time.parse("2020-12-18T06:15:50Z"))
        #expect(ISO8601Time.parse("2020-12-18T06:15:50") == ISO8601Time.parse("2020-12-18T06:15:50Z"))
        let fraction = ISO8601Time.parse("2007-04-08T09:52:57.809Z")!.timeIntervalSince1970
        #expect(abs(fraction - 1_176_025_977.809) < 1e-6)
        for bad in ["", "2020-12-18", "2020-13-01T00:00:00Z", "2020-02-30T00:00:00Z", "2020-12-18T24:00:00Z",
                    "2020-12-18T06:15:50.Z", "2020-12-18T06:15:50Zjunk", "20201218T061550Z"] {
            #expect(ISO8601Time.parse(bad) == nil, "\(bad)")
        }
    }

    /// The RFC 3339 forms that ISO8601DateFormatter (.withInternetDateTime, with and without fractional seconds)
    /// read for event lines and `simulate --start`, with the instants it gave.
    @Test("every RFC 3339 form the command line and event lines read through ISO8601DateFormatter, same instant")
    func readsWhatISO8601DateFormatterRead() {
        let forms: [(String, Double)] = [
            ("2024-06-15T12:00:00Z", 1_718_452_800),
            ("2008-03-03T22:25:13Z", 1_204_583_113),
            ("2008-03-03T22:25:13.5Z", 1_204_583_113.5),
            ("2008-03-03T22:25:13.123Z", 1_204_583_113.123),
            ("2008-03-03T22:25:13+01:00", 1_204_579_513),
            ("2008-03-03T22:25:13+0100", 1_204_579_513),
            ("2008-03-03T22:25:13+01", 1_204_579_513),
            ("2008-03-03T22:25:13-00:00", 1_204_583_113),
            ("2008-03-03T20:55:13-01:30", 1_204_583_113),
            ("2008-03-03T22:25:13.000+05:30", 1_204_563_313),
        ]
        for (text, seconds) in forms {
            let read = ISO8601Time.parse(text)?.timeIntervalSince1970
            #expect(read.map { abs($0 - seconds) < 1e-6 } == true, "\(text): \(String(describing: read))")
        }
        // And what it did not read: lowercase separators, a space, no zone, a comma, a leap second (dated within
        // the last millisecond of 23:59:59).
        #expect(ISO8601Time.parse("2008-03-03t22:25:13z") == ISO8601Time.parse("2008-03-03T22:25:13Z"))
        #expect(ISO8601Time.parse("2008-03-03 22:25:13") == ISO8601Time.parse("2008-03-03T22:25:13Z"))
        #expect(ISO8601Time.parse("2008-03-03T22:25:13,5Z") == ISO8601Time.parse("2008-03-03T22:25:13.5Z"))
        let leap = ISO8601Time.parse("2016-12-31T23:59:60Z")?.timeIntervalSince1970
        #expect(leap.map { abs($0 - 1_483_228_799.999) < 1e-6 } == true)
    }
}
