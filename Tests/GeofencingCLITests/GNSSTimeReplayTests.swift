// A bogus GNSS date in a log through the real executable: `geofence replay` and `geofence run --nmea -` report the
// events the log without it gives, and warn once of what they dropped.
import Foundation
import GeofencingTestSupport
import Testing

@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct GNSSTimeReplayTests {
    /// 30 RMC epochs at 1 Hz from 2026-06-01 12:00:00, east along -27.5 at 1.6 m/s past the fence t1 (r 30 m, 49 m
    /// east of the start): the enter comes at 12:00:17 (27 m east, 22 m from the centre: past the 7.5 m
    /// hysteresis). `dates` replaces the date of the epochs it names (0-based).
    static func log(dates: [Int: String] = [:], skipping skipped: Set<Int> = []) -> Data {
        var text = ""
        for second in 0..<30 where !skipped.contains(second) {
            let minutes = 1.6 * Double(second) / (111_320 * cos(27.5 * .pi / 180)) * 60
            let body = String(format: "GPRMC,1200%02d.00,A,2730.0000,S,153%07.4f,E,3.1,90.0,%@,,,A",
                              second, minutes, dates[second] ?? "010626")
            let checksum = body.utf8.reduce(UInt8(0), ^)
            text += "$\(body)*\(String(format: "%02X", checksum))\r\n"
        }
        return Data(text.utf8)
    }

    private func replay(_ log: Data, in directory: URL) throws -> GeofenceExecutable.Outcome {
        let track = directory.appendingPathComponent("drive-\(UUID().uuidString).nmea")
        try log.write(to: track)
        let fences = directory.appendingPathComponent("fences.csv")
        try "id,lat,lon,radius_m\nt1,-27.5,153.0005,30\n".write(to: fences, atomically: true, encoding: .utf8)
        return try GeofenceExecutable.run(["replay", track.path, "--fences", fences.path, "--format", "jsonl"])
    }

    @Test("one epoch dated 2099 (valid checksum): the enter at 12:00:17 as without it, one warning")
    func futureDatedEpochCostsOnlyItself() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clean = try replay(Self.log(), in: directory)
        try #require(clean.status == 0, "\(clean.standardError)")
        #expect(clean.standardOutput.contains("\"type\":\"enter\""), "\(clean.standardOutput)")
        #expect(clean.standardOutput.contains("2026-06-01T12:00:17"), "\(clean.standardOutput)")

        let bogus = try replay(Self.log(dates: [5: "150699"]), in: directory)
        #expect(bogus.status == 0, "\(bogus.standardError)")
        #expect(bogus.standardOutput == clean.standardOutput, "\(bogus.standardOutput)")
        let warnings = bogus.standardError.split(separator: "\n").filter { $0.contains("GNSS time") }
        #expect(warnings.first?.contains("dropped a fix dated 2099-06-15T12:00:05") == true, "\(warnings)")
        #expect(warnings.last?.contains("1 dropped for a jump forward") == true, "\(warnings)")
    }

    @Test("bogus dates ahead and behind: each kind warned once, every one counted")
    func eachKindWarnedOnce() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clean = try replay(Self.log(), in: directory)
        let bogus = try replay(Self.log(dates: [3: "150699", 8: "010698", 20: "311205", 24: "311205"]), in: directory)
        #expect(bogus.status == 0, "\(bogus.standardError)")
        #expect(bogus.standardOutput == clean.standardOutput, "\(bogus.standardOutput)")
        let lines = bogus.standardError.split(separator: "\n")
        #expect(lines.filter { $0.contains("warning: GNSS time: dropped") && $0.contains("after the one before") }
            .count == 1, "\(bogus.standardError)")
        #expect(lines.filter { $0.contains("warning: GNSS time: dropped") && $0.contains("before the one before") }
            .count == 1, "\(bogus.standardError)")
        #expect(bogus.standardError.contains("2 dropped for a jump forward, 2 dropped for a step back"),
                "\(bogus.standardError)")
    }

    @Test("run --nmea -: the daemon reports the enter at 12:00:17 despite the 2099 epoch")
    func daemonSurvivesFutureDatedEpoch() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("fences.csv")
        try "id,lat,lon,radius_m\nt1,-27.5,153.0005,30\n".write(to: fences, atomically: true, encoding: .utf8)
        let run = try GeofenceExecutable.run(
            ["run", "--store", directory.appendingPathComponent("unit.db").path, "--nmea", "-",
             "--fences", fences.path, "--format", "jsonl"],
            input: Self.log(dates: [5: "150699"]))
        #expect(run.status == 0, "\(run.standardError)")
        let enters = run.standardOutput.split(separator: "\n").filter { $0.contains("\"type\":\"enter\"") }
        #expect(enters.count == 1 && enters[0].contains("2026-06-01T12:00:17"), "\(run.standardOutput)")
        #expect(run.standardError.contains("warning: GNSS time: dropped a fix dated 2099-06-15T12:00:05"),
                "\(run.standardError)")
    }
}
