// The test-only NMEA reader (TestNMEA) is itself tested: the real-data tests are only as good as their input.
import Foundation
import Geofencing
import Testing

@Suite("TestNMEA (test support)")
struct TestNMEATests {
    @Test("a valid RMC sentence parses to time, position, speed and course")
    func parsesRMC() throws {
        let sentence = "$GPRMC,222437.000,A,2734.33926,S,15305.44310,E,33.9,157.8,030308,11.2,W,A*0F"
        let body = try #require(TestNMEA.checkedBody(of: sentence))
        guard case .fix(let fix) = TestNMEA.parseRMC(body) else {
            Issue.record("not parsed")
            return
        }
        #expect(abs(fix.coordinate.latitude - -(27 + 34.33926 / 60)) < 1e-12)
        #expect(abs(fix.coordinate.longitude - (153 + 5.44310 / 60)) < 1e-12)
        // 2008-03-03 22:24:37 UTC = 1204583077 s after the Unix epoch.
        #expect(fix.timestamp == Date(timeIntervalSince1970: 1_204_583_077))
        #expect(abs(fix.speed! - 33.9 * 0.514444) < 1e-3)
        #expect(fix.course == 157.8)
    }

    @Test("a wrong checksum, a missing one, or status V is rejected")
    func rejects() {
        let sentence = "$GPRMC,222437.000,A,2734.33926,S,15305.44310,E,33.9,157.8,030308,11.2,W,A"
        #expect(TestNMEA.checkedBody(of: sentence + "*0F") != nil, "the right checksum, for contrast")
        #expect(TestNMEA.checkedBody(of: sentence + "*0E") == nil)
        #expect(TestNMEA.checkedBody(of: sentence) == nil)
        #expect(TestNMEA.parseRMC("GPRMC,074109.000,V,,,,,,,300613,,,N") == .invalid)
    }

    @Test("northern and western hemispheres, and a date in another year")
    func hemispheresAndDates() {
        #expect(TestNMEA.degrees("5420.4738", hemisphere: "N", degreeDigits: 2) == 54 + 20.4738 / 60)
        #expect(TestNMEA.degrees("00130.5000", hemisphere: "W", degreeDigits: 3) == -(1 + 30.5 / 60))
        #expect(TestNMEA.timestamp(time: "074109.500", date: "300613") == Date(timeIntervalSince1970: 1_372_578_069.5))
        #expect(TestNMEA.timestamp(time: "000000", date: "010199") == Date(timeIntervalSince1970: 915_148_800))  // 1999
        #expect(TestNMEA.daysSince1970(year: 1970, month: 1, day: 1) == 0)
        #expect(TestNMEA.daysSince1970(year: 2000, month: 3, day: 1) == 11_017)
    }
}
