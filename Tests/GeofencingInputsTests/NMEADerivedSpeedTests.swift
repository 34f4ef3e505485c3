// The speed gpsd derives for fixes whose sentences gave none, and the reader with it.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("NMEA reader: the speed gpsd derives from the previous fix")
struct NMEADerivedSpeedTests {
    /// One epoch of GGA and an RMC without speed or course, at `second` past 22:24 on 2008-03-03, `minutesNorth`
    /// minutes of latitude north of a point near Brisbane; GGA quality 0 and RMC status V when `fix` is false.
    static func epoch(second: Int, minutesNorth: Double, fix: Bool = true, speedKnots: String = "") -> [String] {
        let time = String(format: "2224%02d.000", second)
        let latitude = String(format: "2734.%05.0f", 33_926 - minutesNorth * 100_000)
        return [
            "GPGGA,\(time),\(latitude),S,15305.44310,E,\(fix ? 1 : 0),07,1.3,50.6,M,39.2,M,,",
            "GPRMC,\(time),\(fix ? "A" : "V"),\(latitude),S,15305.44310,E,\(speedKnots),,030308,11.2,W,A",
        ]
    }

    /// A metre of latitude at 27.57° S in minutes of arc, from the meridian's radius of curvature there (an
    /// independent figure for the expectations: M = a(1 − e²)/(1 − e² sin²φ)^1.5).
    static let minutesPerMetre: Double = {
        let a = 6_378_137.0, e2 = 0.006_694_379_990_14
        let sine = sin(27.5723 * .pi / 180)
        let meridianRadius = a * (1 - e2) / pow(1 - e2 * sine * sine, 1.5)
        return 180 * 60 / (.pi * meridianRadius)
    }()

    @Test func aFixWithoutSpeedGetsTheDistanceFromThePreviousFixOverTheTime() throws {
        let north = 16 * Self.minutesPerMetre
        let log = NMEATestText.read(Self.epoch(second: 37, minutesNorth: 0) + Self.epoch(second: 38, minutesNorth: north)
            + Self.epoch(second: 40, minutesNorth: 3 * north))
        let fixes = log.observations.compactMap(\.fix)
        try #require(fixes.count == 3)
        #expect(fixes[0].speed == nil, "the first fix has no previous one")
        // NMEA gives minutes to 5 decimals (1.8 cm): the positions, and so the speeds, are that close to 16 m a step.
        #expect(abs((fixes[1].speed ?? 0) - 16) < 0.03)
        #expect(abs((fixes[2].speed ?? 0) - 16) < 0.03, "two steps of 16 m in 2 s")
        #expect(fixes.allSatisfy { $0.course == nil }, "gpsd derives no course from positions")
        let speed = try #require(fixes[1].speed)
        #expect(speed == (speed * 1000).rounded() / 1000, "to 3 decimals, as gpsd's TPV prints it")
    }

    @Test func aFixAfterOneWithoutAFixGetsNoSpeed() throws {
        let log = NMEATestText.read(Self.epoch(second: 37, minutesNorth: 0)
            + Self.epoch(second: 38, minutesNorth: 0.01, fix: false) + Self.epoch(second: 39, minutesNorth: 0.02))
        let fixes = log.observations.compactMap(\.fix)
        try #require(fixes.count == 2)
        #expect(fixes[1].speed == nil, "gpsd's previous fix is the epoch without one")
    }

    @Test func theReceiversOwnSpeedIsKept() throws {
        let log = NMEATestText.read(Self.epoch(second: 37, minutesNorth: 0)
            + Self.epoch(second: 38, minutesNorth: 0.01, speedKnots: "10.0"))
        let fix = try #require(log.observations.last?.fix)
        #expect(fix.speed == NMEASentence.speedAsGPSDReportsIt(10 * 1852 / 3600.0))
    }

    @Test func aLogWithoutDatesGetsNoDerivedSpeed() throws {
        // GGA only: gpsd has no time for these fixes, so it derives nothing; the reader dates them by its reference
        // day and derives nothing either.
        let gga = { (bodies: [String]) in bodies.filter { $0.hasPrefix("GPGGA") } }
        let log = NMEATestText.read(gga(Self.epoch(second: 37, minutesNorth: 0))
            + gga(Self.epoch(second: 38, minutesNorth: 0.01)))
        let fixes = log.observations.compactMap(\.fix)
        try #require(fixes.count == 2)
        #expect(fixes.allSatisfy { $0.speed == nil })
    }
}
