// Calendar arithmetic, ISO 8601 times, accuracy formulas.
import Foundation
import Testing
@testable import GeofencingInputs

@Suite("Support")
struct SupportTests {
    @Test func daysSince1970() {
        #expect(CivilCalendar.daysSince1970(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.daysSince1970(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilCalendar.daysSince1970(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilCalendar.daysSince1970(year: 2024, month: 2, day: 29) == 19_782)
        #expect(CivilCalendar.daysSince1970(year: 2023, month: 2, day: 29) == nil)
        #expect(CivilCalendar.daysSince1970(year: 1900, month: 2, day: 29) == nil)
        #expect(CivilCalendar.daysSince1970(year: 2000, month: 2, day: 29) != nil)
        // Every day of 1900...2100 against Foundation's Gregorian calendar in UTC.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var day = CivilCalendar.daysSince1970(year: 1900, month: 1, day: 1)!
        for year in 1900...2100 {
            for month in 1...12 {
                for dayOfMonth in 1...CivilCalendar.daysInMonth(year: year, month: month) {
                    let foundation = calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth))!
                    #expect(Double(day) * 86_400 == foundation.timeIntervalSince1970)
                    #expect(CivilCalendar.daysSince1970(year: year, month: month, day: dayOfMonth) == day)
                    day += 1
                }
            }
        }
    }

    @Test func iso8601() {
        #expect(ISO8601Timestamp.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(ISO8601Timestamp.parse("2027-10-18T22:24:38.000Z") == Date(timeIntervalSince1970: 1_823_898_278))
        #expect(ISO8601Timestamp.parse("2020-12-18T07:15:50+01:00") == ISO8601Timestamp.parse("2020-12-18T06:15:50Z"))
        #expect(ISO8601Timestamp.parse("2020-12-18T05:45:50-0030") == ISO8601Timestamp.parse("2020-12-18T06:15:50Z"))
        #expect(ISO8601Timestamp.parse("2020-12-18T06:15:50") == ISO8601Timestamp.parse("2020-12-18T06:15:50Z"))
        let fraction = ISO8601Timestamp.parse("2007-04-08T09:52:57.809Z")!.timeIntervalSince1970
        #expect(abs(fraction - 1_176_025_977.809) < 1e-6)
        for bad in ["", "2020-12-18", "2020-13-01T00:00:00Z", "2020-02-30T00:00:00Z", "2020-12-18T24:00:00Z",
                    "2020-12-18T06:15:50.Z", "2020-12-18T06:15:50Zjunk", "20201218T061550Z"] {
            #expect(ISO8601Timestamp.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func accuracyEstimates() {
        #expect(abs(HorizontalAccuracyEstimate.fromSigmas(latitude: 1, longitude: 1)! - 2.4477) < 1e-4)
        #expect(HorizontalAccuracyEstimate.fromSigmas(latitude: -1, longitude: 1) == nil)
        #expect(HorizontalAccuracyEstimate.fromHDOP(1.2, differential: false) == 22.8, "gpsdecode's eph for HDOP 1.2")
        #expect(HorizontalAccuracyEstimate.fromHDOP(2, differential: true) == 9.5)
        #expect(HorizontalAccuracyEstimate.fromHDOP(0, differential: false) == nil)
        #expect(abs(HorizontalAccuracyEstimate.fromAxisErrors95(x: 1.959964, y: 1.959964)! - 2.4477) < 1e-4)
    }

    @Test func lineSplitter() {
        var splitter = LineSplitter(maximumLength: 4)
        var lines: [LineSplitter.Line] = []
        splitter.split(Array("ab\r".utf8), into: &lines)
        splitter.split(Array("\ncd\n\nabcdef\rx".utf8), into: &lines)
        splitter.finish(into: &lines)
        #expect(lines == [.text(Array("ab".utf8)), .text(Array("cd".utf8)), .text([]), .overlong(byteCount: 6),
                          .text(Array("x".utf8))])
    }
}
