// gpsd JSON TPVs that a live gpsd's reader refuses are refused in a recorded log too: a mode gpsd does not define,
// a time before the GPS epoch (what libgps makes of a time it cannot parse), and the leap second's time.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("gpsd JSON time and mode")
struct GPSDJSONTimeAndModeTests {
    private func read(_ lines: [String]) -> GPSDJSONLog {
        GPSDJSONReader.read(data: Data(lines.joined(separator: "\n").utf8), source: "test.json")
    }

    @Test func modeOutsideZeroToThreeIsNotAFix() {
        let log = read([
            #"{"class":"TPV","mode":99,"time":"2024-05-01T10:00:00.000Z","lat":52.5,"lon":13.4}"#,
            #"{"class":"TPV","mode":-1,"time":"2024-05-01T10:00:01.000Z","lat":52.5,"lon":13.4}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:02.000Z","lat":52.5,"lon":13.4}"#,
        ])
        #expect(log.observations.map(\.time) == [Date(timeIntervalSince1970: 1_714_557_602)])
        #expect(log.statistics.unusableReports == 2)
    }

    @Test func timeBeforeTheGPSEpochIsNoTime() {
        let log = read([
            #"{"class":"TPV","mode":3,"time":"1899-12-31T00:00:00.000Z","lat":52.5,"lon":13.4}"#,
            #"{"class":"TPV","mode":1,"time":0}"#,
            #"{"class":"TPV","mode":3,"time":"1980-01-06T00:00:00.000Z","lat":52.5,"lon":13.4}"#,
        ])
        #expect(log.observations.map(\.time) == [Date(timeIntervalSince1970: 315_964_800)])
        #expect(log.statistics.unusableReports == 2)
    }

    @Test func leapSecondKeepsTimeMonotonic() {
        let log = read([
            #"{"class":"TPV","mode":3,"time":"2016-12-31T23:59:59.500Z","lat":52.5,"lon":13.4}"#,
            #"{"class":"TPV","mode":3,"time":"2016-12-31T23:59:60.500Z","lat":52.5,"lon":13.4}"#,
            #"{"class":"TPV","mode":3,"time":"2017-01-01T00:00:00.000Z","lat":52.5,"lon":13.4}"#,
        ])
        let times = log.observations.map(\.time.timeIntervalSince1970)
        #expect(times.count == 3 && times == times.sorted() && Set(times).count == 3, "\(times)")
        #expect(times.last == 1_483_228_800)
    }
}
