import Foundation
import Geofencing
import Testing

@testable import GeofencingGPSD

/// How a gpsd TPV report becomes an observation: no gpsd needed.
@Suite struct TPVReportTests {
    /// A 3-D TPV as gpsd 3.22 reports the Brisbane log (nmealog.txt) at 2008-03-03 22:24:41 — dated 1024 weeks later
    /// by gpsd's GPS week-rollover guess, 2027-10-18.
    static let brisbane = TPVReport(
        mode: 3, seconds: 1_823_898_281, nanoseconds: 0, latitude: -27.572913833, longitude: 153.090970833,
        eph: 24.7, epx: 13.938, epy: 13.695, speed: 17.8, track: 159.4, altitudeMSL: 52.7)

    @Test func fullFixKeepsEveryField() throws {
        guard case .observation(.fix(let fix)) = Self.brisbane.reading else {
            Issue.record("expected a fix, got \(Self.brisbane.reading)")
            return
        }
        #expect(fix.coordinate == Coordinate(latitude: -27.572913833, longitude: 153.090970833))
        #expect(fix.timestamp == Date(timeIntervalSince1970: 1_823_898_281))
        #expect(fix.horizontalAccuracy == 24.7)
        #expect(fix.speed == 17.8)
        #expect(fix.course == 159.4)
        #expect(fix.altitude == 52.7)
    }

    @Test func nanosecondsAreKept() throws {
        var report = Self.brisbane
        report.nanoseconds = 500_000_000
        let time = try #require(observation(report)).time
        #expect(time.timeIntervalSince1970 == 1_823_898_281.5)
    }

    /// NaN is gpsd's "not reported": it must become nil, never 0.
    @Test func missingValuesStayNil() throws {
        var report = Self.brisbane
        (report.eph, report.epx, report.epy) = (.nan, .nan, .nan)
        (report.speed, report.track, report.altitudeMSL) = (.nan, .nan, .nan)
        let fix = try #require(observation(report)?.fix)
        #expect(fix.horizontalAccuracy == nil)
        #expect(fix.speed == nil)
        #expect(fix.course == nil)
        #expect(fix.altitude == nil)
    }

    /// Without eph, the accuracy comes from epx and epy as the gpsd JSON reader computes it from a recording:
    /// 0.883 × sqrt(epx² + epy²) (`HorizontalAccuracyEstimate.fromAxisErrors95`).
    @Test func accuracyFromEpxEpy() throws {
        var report = Self.brisbane
        report.eph = .nan
        (report.epx, report.epy) = (3, 4)
        let fromAxes = HorizontalAccuracyEstimate.fromAxisErrors95(x: 3, y: 4)
        #expect(try #require(observation(report)?.fix).horizontalAccuracy == fromAxes)
        #expect(abs(try #require(fromAxes) - 0.883 * 5) < 0.001)
        report.epy = .nan  // one of them alone says nothing about the other axis
        #expect(try #require(observation(report)?.fix).horizontalAccuracy == nil)
        (report.eph, report.epy) = (-1, 4)  // a negative eph is no estimate: epx and epy are used
        #expect(try #require(observation(report)?.fix).horizontalAccuracy == fromAxes)
        report.epx = -3
        #expect(try #require(observation(report)?.fix).horizontalAccuracy == nil)
    }

    /// The epoch's GST, when paired with the report, gives the accuracy (the model of HorizontalAccuracyEstimate).
    @Test func gstWinsOverEph() throws {
        var report = Self.brisbane
        report.gst = GSTReport(seconds: report.seconds, nanoseconds: 0, latitudeSigma: 7.7, longitudeSigma: 12.5)
        #expect(try #require(observation(report)?.fix).horizontalAccuracy
            == HorizontalAccuracyEstimate.fromSigmas(latitude: 7.7, longitude: 12.5))
        report.gst?.latitudeSigma = .nan  // a GST without sigmas says nothing: eph
        #expect(try #require(observation(report)?.fix).horizontalAccuracy == 24.7)
    }

    @Test(arguments: [Int32(0), 1])
    func modeZeroOrOneIsNoFix(mode: Int32) throws {
        var report = Self.brisbane
        report.mode = mode
        #expect(report.reading == .observation(.noFix(Date(timeIntervalSince1970: 1_823_898_281))))
    }

    /// gpsd can report mode 2 before it has a position from every sentence; without one it is no fix.
    @Test func twoDimensionalWithoutPositionIsNoFix() {
        var report = Self.brisbane
        report.mode = 2
        report.latitude = .nan
        #expect(report.reading == .observation(.noFix(Date(timeIntervalSince1970: 1_823_898_281))))
    }

    /// gpsd's first TPVs of a log can lack a time (a GGA before any RMC gave the date): nothing to pass on.
    @Test func untimedReportIsNotPassedOn() {
        var report = Self.brisbane
        (report.seconds, report.nanoseconds) = (0, 0)
        #expect(report.reading == .untimed)
        report.mode = 1
        #expect(report.reading == .untimed)
    }

    @Test func outOfRangePositionIsInvalid() {
        var report = Self.brisbane
        report.latitude = 91
        #expect(report.reading == .invalid)
        report.latitude = .infinity
        #expect(report.reading == .observation(.noFix(Date(timeIntervalSince1970: 1_823_898_281))))
    }

    private func observation(_ report: TPVReport) -> Observation? {
        if case .observation(let observation) = report.reading { return observation }
        return nil
    }
}

@Suite struct ReconnectBackoffTests {
    @Test func growsExponentiallyUpToTheMaximum() {
        let backoff = ReconnectBackoff(initial: .milliseconds(250), maximum: .seconds(5), multiplier: 2)
        let delays = (1 ... 8).map { backoff.delay(afterFailures: $0) }
        #expect(delays == [250, 500, 1000, 2000, 4000, 5000, 5000, 5000].map { Duration.milliseconds($0) })
        #expect(backoff.delay(afterFailures: 10_000) == .seconds(5))  // no overflow
    }

    @Test func degenerateSettingsStayBounded() {
        #expect(ReconnectBackoff(initial: .seconds(1), maximum: .zero).delay(afterFailures: 3) == .seconds(1))
        #expect(ReconnectBackoff(initial: .seconds(1), multiplier: 0.5).delay(afterFailures: 3) == .seconds(1))
        #expect(ReconnectBackoff(initial: .seconds(-1)).delay(afterFailures: 1) == .zero)
    }

    @Test func millisecondsForPollRoundUp() {
        #expect(Duration.microseconds(1).pollMilliseconds == 1)
        #expect(Duration.milliseconds(1500).pollMilliseconds == 1500)
        #expect(Duration.zero.pollMilliseconds == 0)
        #expect(Duration.seconds(-1).pollMilliseconds == 0)
        #expect(Duration.seconds(1_000_000_000).pollMilliseconds == Int32.max)
    }
}
