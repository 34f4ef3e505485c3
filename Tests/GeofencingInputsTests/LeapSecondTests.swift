// The leap second 23:59:60: read, dated inside the last millisecond of 23:59:59 so that time stays monotonic, and
// the epochs after it reach the monitor's rules.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("Leap second")
struct LeapSecondTests {
    /// 10 Hz RMC across the leap second at the end of 2016-12-31: 23:59:59.0 ... 23:59:60.9, 00:00:00.0 ... 00:00:00.9.
    /// Before midnight the vehicle is 300 m south of (-27.5, 153.0); from midnight on it is there.
    private func leapSecondLog() -> [String] {
        var bodies: [String] = []
        for (second, date, latitude) in [("235959", "311216", "2730.1627"), ("235960", "311216", "2730.1627"),
                                         ("000000", "010117", "2730.0000")] {
            for tenth in 0..<10 {
                bodies.append("GPRMC,\(second).\(tenth)0,A,\(latitude),S,15300.0000,E,0.0,0.0,\(date),,,A")
            }
        }
        return bodies
    }

    @Test("23:59:60.f is dated 23:59:59.999 + f/1000: every epoch in order, the next day's on time")
    func leapSecondIsMonotonic() {
        let log = NMEATestText.read(leapSecondLog())
        let times = log.observations.map(\.time)
        #expect(times.count == 30, "\(log.statistics.problems)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times.map(\.timeIntervalSince1970))")
        let midnight = NMEATestText.utc(2017, 1, 1)
        #expect(times[20] == midnight)
        for time in times[10..<20] {
            #expect(time < midnight && time >= midnight - 0.001, "\(time.timeIntervalSince1970)")
        }
        #expect(log.statistics.leapSecondObservations == 10)
        #expect(log.statistics.badLines == 0)
    }

    @Test("second 60 at any other time than 23:59 is not a time of day")
    func secondSixtyElsewhereRefused() {
        let log = NMEATestText.read(["GPRMC,123060.00,A,2730.0000,S,15300.0000,E,0.0,0.0,010117,,,A"])
        #expect(log.observations.isEmpty && log.statistics.malformedLines == 1)
        #expect(log.statistics.problems.first?.message.contains("is not a time of day") == true)
    }

    @Test("the fix at midnight after the leap second reaches the rules: the enter is at 00:00:00.0")
    func fixAfterLeapSecondIsUsed() throws {
        let monitor = try RegionMonitor()
        monitor.startMonitoring(for: Region(
            center: Coordinate(latitude: -27.5, longitude: 153.0), radius: 100, identifier: "A"))
        let recorder = LeapSecondEventRecorder()
        monitor.delegate = recorder
        for observation in NMEATestText.read(leapSecondLog()).observations { monitor.process(observation) }
        #expect(recorder.enterTimes == [NMEATestText.utc(2017, 1, 1)], "\(recorder.enterTimes)")
        #expect(monitor.timeStatistics.backwardStepsDropped == 0)
    }
}

/// Keeps the times of the enters a monitor reports.
private final class LeapSecondEventRecorder: RegionMonitorDelegate, @unchecked Sendable {
    // @unchecked: used from the test's thread only (the monitor delivers on the thread that feeds it).
    var enterTimes: [Date] = []

    func regionMonitor(_ monitor: RegionMonitor, didEnterRegion region: Region, event: RegionEvent) {
        enterTimes.append(event.time)
    }
}
