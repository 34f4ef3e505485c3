// Field formats: numbers, times, dates, degrees and minutes.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("NMEA fields")
struct NMEAFieldTests {
    private func sentence(_ fields: String...) -> NMEASentence {
        NMEASentence(talker: "GP", type: "XXX", fields: fields.map { Substring($0) })
    }

    @Test func decimalsAreStrict() throws {
        #expect(try sentence("12.5").decimal(1, "x") == 12.5)
        #expect(try sentence("-0.7").decimal(1, "x") == -0.7)
        #expect(try sentence("").decimal(1, "x") == nil)
        for text in ["nan", "inf", "0x1p3", "1.2.3", "1e5", "-", "."] {
            #expect(throws: NMEAFieldError.self, "\(text)") { try sentence(text).decimal(1, "x") }
        }
    }

    @Test func timeOfDayKeepsFractionsExactly() throws {
        #expect(try sentence("222437.000").timeOfDay(1) == (22 * 3600 + 24 * 60 + 37) * 1_000_000_000)
        #expect(try sentence("095255.810").timeOfDay(1) == (9 * 3600 + 52 * 60 + 55) * 1_000_000_000 + 810_000_000)
        #expect(try sentence("114941").timeOfDay(1) == (11 * 3600 + 49 * 60 + 41) * 1_000_000_000)
        #expect(try sentence("235960").timeOfDay(1) == 86_400 * 1_000_000_000, "a leap second")
        for text in ["2459", "246000", "12a000", "120000.", "120000.1x"] {
            #expect(throws: NMEAFieldError.self, "\(text)") { try sentence(text).timeOfDay(1) }
        }
    }

    @Test func datesAreCheckedAgainstTheCalendar() throws {
        #expect(try sentence("030308").twoDigitYearDate(1) == .twoDigitYear(8, month: 3, day: 3))
        #expect(try sentence("290224").twoDigitYearDate(1) == .twoDigitYear(24, month: 2, day: 29))
        for text in ["000000", "320108", "011308", "0101", "01o108"] {
            #expect(throws: NMEAFieldError.self, "\(text)") { try sentence(text).twoDigitYearDate(1) }
        }
    }

    /// Angles are the values gpsd's TPV carries (9 decimals, read back as the nearest double), not the exact
    /// quotient: 5.44310′ is 0.0907183333…°, which gpsd sends as 0.090718333.
    @Test func degreesAndMinutes() throws {
        let brisbane = try #require(try sentence("2734.33926", "S", "15305.44310", "E").coordinate(from: 1))
        #expect(brisbane.latitude == -27.572321)
        #expect(brisbane.longitude == 153.090718333)
        #expect(brisbane.longitude != 153 + 5.44310 / 60)
        let west = try #require(try sentence("5229", "N", "00005.5", "W").coordinate(from: 1))
        #expect(west.latitude == 52.483333333)
        #expect(west.longitude == -0.091666667)
        #expect(try sentence("", "", "", "").coordinate(from: 1) == nil)
    }

    @Test func badCoordinatesThrowWithTheFieldNamed() {
        #expect(throws: NMEAFieldError(field: 1, "latitude", "12x7.5", "is not ddmm.mmmm")) {
            try sentence("12x7.5", "N", "00005.5", "E").coordinate(from: 1)
        }
        #expect(throws: NMEAFieldError(field: 2, "hemisphere", "X", "is not N or S")) {
            try sentence("1207.5", "X", "00005.5", "E").coordinate(from: 1)
        }
        #expect(throws: NMEAFieldError(field: 1, "latitude", "9107.5", "is out of range")) {
            try sentence("9107.5", "N", "00005.5", "E").coordinate(from: 1)
        }
        #expect(throws: NMEAFieldError(field: 3, "longitude", "00060.0", "is out of range")) {
            try sentence("1207.5", "N", "00060.0", "E").coordinate(from: 1)
        }
        #expect(throws: NMEAFieldError.self) { try sentence("-1207.5", "N", "00005.5", "E").coordinate(from: 1) }
        #expect(throws: NMEAFieldError.self) { try sentence("1207.5", "N", "", "").coordinate(from: 1) }
    }
}
