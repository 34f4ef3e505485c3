// The course gpsd makes from a compass heading (HDG) and its magnetic variation grid, and the reader with it.
import Foundation
import Geofencing
import Testing
@testable import GeofencingInputs

@Suite("NMEA reader: the course gpsd makes from a compass heading")
struct NMEACompassCourseTests {
    /// Markermeer, where the boat log with a compass was recorded: the grid's variation there is about 1.6° E.
    static let latitude = "5229.9085", longitude = "00520.4399"
    static let position = Coordinate(latitude: 52 + 29.9085 / 60, longitude: 5 + 20.4399 / 60)

    static func time(_ second: Int) -> String { String(format: "1000%02d.00", second) }
    static func gga(_ second: Int) -> String {
        "GPGGA,\(time(second)),\(latitude),N,\(longitude),E,1,12,0.50,1.0,M,46.9,M,,"
    }
    static func rmc(_ second: Int, course: String = "", variation: String = "") -> String {
        "GPRMC,\(time(second)),A,\(latitude),N,\(longitude),E,4.0,\(course),150820,\(variation),A"
    }
    static func zda(_ second: Int) -> String { "GPZDA,\(time(second)),15,08,2020,00,00" }
    static func hdg(_ fields: String) -> String { "HCHDG,\(fields)" }

    /// The course gpsd gives for a compass heading where no variation is known: heading minus the grid's.
    static func fromGrid(_ heading: Double) -> Double {
        NMEASentence.courseAsGPSDReportsIt(heading - MagneticVariation.degrees(at: position))
    }

    /// A receiver that sends GGA first and ends its cycle with RMC (gpsd reports at the RMC), on an instrument bus
    /// with a compass: its course, where the RMC has none, is the latest heading of gpsd's cycle.
    static let ggaFirst = [
        gga(0), rmc(0, course: "80.0"),                               // the receiver's own course
        gga(1), hdg("75.0,,,0.9,E"), rmc(1),                          // no course: the heading's
        zda(2), hdg("77.0,,,0.9,E"), gga(2), rmc(2),                  // the heading came in gpsd's previous cycle
        zda(3), hdg("77.0,,,0.9,E"), gga(3), hdg("78.0,,,0.9,E"), rmc(3),
        gga(4),                                                       // ends the last epoch, reports nothing
    ]
    /// A receiver that sends RMC first and ends its cycle with GGA: the RMC's variation is known when the heading
    /// comes, unless it is at most 0.09°.
    static let rmcFirst = [
        rmc(0, course: "80.0"), gga(0),
        rmc(1, variation: "2.5,E"), hdg("76.0,,,0.9,E"), gga(1),      // 76.0 − 2.5
        rmc(2, variation: "0.05,E"), hdg("76.0,,,0.9,E"), gga(2),     // too small: the grid's
        rmc(3, variation: "2.5,W"), hdg("76.0,,,0.9,E"), gga(3),      // 76.0 + 2.5
        rmc(4),                                                       // ends the last epoch, reports nothing
    ]

    @Test func aFixWithoutCourseTakesTheLatestHeadingOfGPSDsCycle() throws {
        let courses = NMEATestText.read(Self.ggaFirst).observations.compactMap(\.fix).map(\.course)
        try #require(courses.count == 4)
        #expect(courses[0] == 80.0)
        #expect(courses[1] == Self.fromGrid(75.0))
        #expect(courses[2] == nil, "gpsd cleared the heading with its fix when the GGA began the cycle")
        #expect(courses[3] == Self.fromGrid(78.0))
    }

    @Test func theRMCsVariationIsUsedWhenLargerThanAHundredthOfADegreeOrSo() throws {
        let courses = NMEATestText.read(Self.rmcFirst).observations.compactMap(\.fix).map(\.course)
        try #require(courses.count == 4)
        #expect(courses[0] == 80.0)
        #expect(courses[1] == 73.5)
        #expect(courses[2] == Self.fromGrid(76.0))
        #expect(courses[3] == 78.5)
    }

    @Test func headingsAreReadAsGPSDReadsThem() {
        let decoded = { (fields: String) in NMEAReport.hdg(NMEASentence(talker: "HC", type: "HDG",
            fields: fields.split(separator: ",", omittingEmptySubsequences: false))) }
        #expect(decoded("101.1,,,7.1,W").magneticTrack == 101.1)
        #expect(decoded("101.1,,,7.1,W").magneticVariation == nil, "gpsd reads the variation one field early")
        #expect(decoded("101.1,2.0,E,7.1,W").magneticTrack == 101.1, "gpsd never applies the deviation")
        #expect(decoded("101.1,2.0,E,7.1,W").magneticVariation == nil, "'7.1' is no direction to gpsd")
        #expect(decoded("101.1,,3.0,E,").magneticVariation == 3.0, "a number where gpsd looks for the variation")
        #expect(decoded("101.1,,3.0,W,").magneticVariation == -3.0)
        #expect(decoded("101.1,-1.0,E,,").magneticTrack == nil, "a negative deviation voids the sentence")
        #expect(decoded("360.5,,,,").magneticTrack == nil, "a heading beyond 360°")
        #expect(decoded(",,,,").magneticTrack == nil)
    }

    @Test func aHeadingFromAnyTalkerIsRead() throws {
        let bodies = Self.ggaFirst.map { $0.hasPrefix("HCHDG") ? "II" + $0.dropFirst(2) : $0 }
        let courses = NMEATestText.read(bodies).observations.compactMap(\.fix).map(\.course)
        try #require(courses.count == 4)
        #expect(courses[1] == Self.fromGrid(75.0))
    }

    /// The same two logs through gpsd's own decoder: every fix's course and speed are gpsd's.
    @Test(.enabled(if: GPSDecodeRun.isAvailable, "skipped: gpsdecode (Debian package gpsd-clients) is not installed"))
    func bothReceiversGiveTheCoursesGPSDGives() throws {
        for (name, bodies) in [("GGA first", Self.ggaFirst), ("RMC first", Self.rmcFirst)] {
            let data = NMEATestText.log(bodies)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("compass-\(UUID()).nmea")
            try data.write(to: path)
            defer { try? FileManager.default.removeItem(at: path) }
            let comparison = GPSDecodeComparison(
                log: name, observations: NMEAReader.read(data: data, source: name).observations,
                tpvs: try GPSDecodeRun.tpvReports(decoding: path.path), epochs: NMEALogScan.epochs(of: data))
            #expect(comparison.unexplained == 0, "\(name): \(comparison.unexplainedExamples)")
            #expect(comparison.motionDiffering == 0, "\(name): \(comparison.motionExamples)")
            #expect(comparison.motionAgreeing >= 3, "\(name): the epochs with a course from the heading are compared")
        }
    }

    /// `MagneticVariationGrid` against the installed gpsd, at every node of its grid and at points between them:
    /// an RMC with a course of 100° and no variation at each, one a second, through `gpsdecode`, whose TPV prints the
    /// magnetic track, 100° plus its variation, to 1e-4°.
    @Test(.enabled(if: GPSDecodeRun.isAvailable, "skipped: gpsdecode (Debian package gpsd-clients) is not installed"))
    func theGridIsGPSDsAtEveryNodeAndBetween() throws {
        var points: [Coordinate] = []
        for row in 0..<MagneticVariationGrid.rows {
            for column in 0..<MagneticVariationGrid.columns {
                points.append(Coordinate(latitude: Double(row * 5 - 90), longitude: Double(column * 5 - 180)))
            }
        }
        var random = SplitMix64(seed: 0x6d61_6776_6172)
        for _ in 0..<500 {
            points.append(Coordinate(latitude: random.uniform(in: -90...90), longitude: random.uniform(in: -180...180)))
        }
        let bodies = [Self.rmc(0, course: "100.0")] + points.enumerated().map { index, point in
            let second = index + 1
            let time = String(format: "%02d%02d%02d.00", second / 3600, (second / 60) % 60, second % 60)
            let latitude = Self.nmeaAngle(abs(point.latitude), degreeDigits: 2) + (point.latitude < 0 ? ",S" : ",N")
            let longitude = Self.nmeaAngle(abs(point.longitude), degreeDigits: 3) + (point.longitude < 0 ? ",W" : ",E")
            return "GPRMC,\(time),A,\(latitude),\(longitude),4.0,100.0,150820,,,A"
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("magvar-\(UUID()).nmea")
        try NMEATestText.log(bodies).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let reports = try GPSDecodeRun.tpvReports(decoding: path.path).compactMap { report in
            report.lat.flatMap { lat in report.lon.flatMap { lon in report.magtrack.map { (lat, lon, $0) } } }
        }
        #expect(reports.count >= points.count - 1, "gpsd reported (nearly) every point")
        var differing: [String] = []
        for (lat, lon, magtrack) in reports {
            var expected = 100 + MagneticVariation.degrees(at: Coordinate(latitude: lat, longitude: lon))
            if expected < 0 { expected += 360 } else if expected >= 360 { expected -= 360 }
            if abs(expected - magtrack) > 0.000_05 + 1e-9 {
                differing.append("\(lat),\(lon): gpsd \(magtrack), ours \(expected)")
            }
        }
        print("magnetic variation grid: \(reports.count) positions compared with gpsd, \(differing.count) differ")
        #expect(differing.isEmpty, "\(differing.prefix(5))")
    }

    /// An angle as NMEA's `dddmm.mmmmmm`, with 6 decimals of minutes (0.2 mm).
    static func nmeaAngle(_ degrees: Double, degreeDigits: Int) -> String {
        let whole = Int(degrees)
        let minutes = (degrees - Double(whole)) * 60
        return String(format: "%0\(degreeDigits)d%09.6f", whole, minutes)
    }
}
