// A simulated drive written as NMEA, decoded by gpsd's own parser (gpsdecode): the same fixes come out.
import Foundation
import Geofencing
@testable import GeofencingInputs
import GeofencingWriters
import Testing

@Suite(.enabled(if: SimulatorGpsdecode.executable != nil, "gpsdecode not installed (Debian package gpsd-clients)"))
struct SimulatorGpsdecodeTests {
    /// Routes in all four quadrants and across the prime meridian and the equator, so every hemisphere letter and
    /// the zero-degree fields are exercised.
    static let origins: [Coordinate] = [
        SimulatorFixtures.brisbane,  // S, E
        Coordinate(latitude: 40.7527, longitude: -73.9772),  // N, W
        Coordinate(latitude: 51.4778, longitude: -0.0050),  // crosses 0° east-west
        Coordinate(latitude: -0.0040, longitude: -78.4550),  // crosses the equator
    ]

    @Test(arguments: origins)
    func gpsdecodeReadsTheSameFixesAndTimes(origin: Coordinate) throws {
        var waypoints = [RouteWaypoint(origin, dwell: 5)]
        for (index, azimuth) in [90.0, 0, 45].enumerated() {
            let next = SimulatorFixtures.point(from: waypoints.last!.coordinate, azimuth: azimuth, distance: 700)
            waypoints.append(RouteWaypoint(next, dwell: index == 1 ? 15 : nil))
        }
        waypoints[waypoints.count - 1].dwell = 5
        var errors = GNSSErrorModel.consumer
        errors.outages = OutageModel(scheduled: [30..<35, 61..<62])
        let drive = try DriveSimulator(route: SimulatedRoute(waypoints: waypoints), errors: errors, seed: 21).run()
        let observations = drive.observations
        #expect(observations.contains { $0.fix == nil })

        for writer in [NMEAWriter(), NMEAWriter(talker: "GN", includesVTG: true)] {
            let reports = try SimulatorGpsdecode.decode(writer.log(observations, comments: ["simulated, seed 21"]))
            // gpsd never reports a log's first epoch: it learns from it which sentence ends an epoch.
            try #require(reports.positions.count == observations.count - 1)
            for (observation, report) in zip(observations.dropFirst(), reports.positions) {
                #expect(abs(report.time.timeIntervalSince(observation.time)) < 1e-6)
                guard let fix = observation.fix else {
                    #expect(report.mode == 1, "no fix at \(observation.time)")
                    continue
                }
                #expect(report.mode == 2)
                // gpsdecode prints 9 decimals; the log keeps 1.7e-9 degree.
                #expect(abs(try #require(report.latitude) - fix.coordinate.latitude) < 1e-8)
                #expect(abs(try #require(report.longitude) - fix.coordinate.longitude) < 1e-8)
                // eph = 19 m × HDOP, HDOP written with 4 decimals.
                #expect(abs(try #require(report.eph) - fix.horizontalAccuracy!) < 0.002)
                #expect(abs(try #require(report.speed) - fix.speed!) < 0.001)
                let course = try #require(report.track)
                #expect(abs(SimulationMath.normalizedLongitude(course - fix.course!)) < 0.006)
            }
            // GST's sigmas give back the accuracy: 2.4477 × σ.
            let accuracy = GNSSErrorModel.consumer.reportedAccuracy
            #expect(!reports.sigmas.isEmpty)
            for sigma in reports.sigmas {
                #expect(abs(GNSSErrorModel.radius95PerSigma * sigma.latitude - accuracy) < 0.0015)
                #expect(abs(GNSSErrorModel.radius95PerSigma * sigma.longitude - accuracy) < 0.0015)
            }
        }
    }
}

/// Runs gpsd's decoder on a log and collects its TPV (position) and GST (error sigma) reports.
enum SimulatorGpsdecode {
    struct Position {
        var mode: Int
        var time: Date
        var latitude: Double?
        var longitude: Double?
        var eph: Double?
        var speed: Double?
        var track: Double?
    }

    struct Reports {
        var positions: [Position] = []
        var sigmas: [(latitude: Double, longitude: Double)] = []
    }

    static let executable: URL? = ["/usr/bin/gpsdecode", "/usr/local/bin/gpsdecode"]
        .map { URL(fileURLWithPath: $0) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    static func decode(_ log: String) throws -> Reports {
        guard let executable else { throw CocoaError(.fileNoSuchFile) }
        let input = FileManager.default.temporaryDirectory
            .appendingPathComponent("simulator-\(UUID().uuidString).nmea")
        try Data(log.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }

        let process = Process()
        process.executableURL = executable
        process.arguments = ["-j"]
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()  // until gpsdecode closes it at exit
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "gpsdecode exited with \(process.terminationStatus)")

        var reports = Reports()
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {  // CR LF ends
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            switch object["class"] as? String {
            case "TPV":
                guard let text = object["time"] as? String else { continue }
                reports.positions.append(Position(
                    mode: object["mode"] as? Int ?? 0, time: try #require(isoTime(text), "\(text)"),
                    latitude: object["lat"] as? Double, longitude: object["lon"] as? Double,
                    eph: object["eph"] as? Double, speed: object["speed"] as? Double,
                    track: object["track"] as? Double))
            case "GST":
                if let latitude = object["lat"] as? Double, let longitude = object["lon"] as? Double {
                    reports.sigmas.append((latitude, longitude))
                }
            default: break
            }
        }
        return reports
    }

    /// "2024-06-15T12:00:01.000Z" as a Date, built like the simulator's times (whole seconds + milliseconds).
    private static func isoTime(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { "-T:.Z".contains($0) }).compactMap { Int($0) }
        guard parts.count == 7 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let whole = calendar.date(from: DateComponents(
            year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5]))
        else { return nil }
        return Date(timeIntervalSince1970: whole.timeIntervalSince1970 + Double(parts[6]) / 1000)
    }
}
