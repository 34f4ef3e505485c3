// `geofence replay --approach T` and `geofence run --approach T`: an approach alarm on every loaded fence, through
// the real executable (the daemon stores it with the regions).
import Foundation
import GeofencingTestSupport
import Testing

@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct ReplayApproachTests {
    @Test("a simulated train through a station: one approach line about T seconds before the enter line")
    func approachBeforeEnter() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Due east along the parallel 47.3782 N, 9 km; the station (300 m) 6 km in, a stop off the line 2 km away.
        let route = directory.appendingPathComponent("route.gpx")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <rte><rtept lat="47.3782" lon="8.4611"/><rtept lat="47.3782" lon="8.5800"/></rte>
            </gpx>
            """.write(to: route, atomically: true, encoding: .utf8)
        let fences = directory.appendingPathComponent("fences.csv")
        try "id,lat,lon,radius_m\nstation,47.3782,8.5402,300\nelsewhere,47.3962,8.5402,300\n"
            .write(to: fences, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("drive.nmea")
        let simulate = try GeofenceExecutable.run(
            ["simulate", "--route", route.path, "--profile", "train", "--seed", "3", "-o", log.path])
        try #require(simulate.status == 0, "\(simulate.standardError)")

        let replay = try GeofenceExecutable.run(
            ["replay", log.path, "--fences", fences.path, "--approach", "30", "--format", "jsonl"])
        try #require(replay.status == 0, "\(replay.standardError)")
        let lines = replay.standardOutput.split(separator: "\n").map(String.init)
        let approaches = lines.filter { $0.contains("\"type\":\"approach\"") }
        try #require(approaches.count == 1, "\(replay.standardOutput)")
        #expect(approaches[0].contains("\"region\":\"station\""))
        #expect(approaches[0].contains("\"state\":\"outside\""))
        let enter = try #require(lines.first { $0.contains("\"type\":\"enter\"") && $0.contains("\"station\"") })
        // Observed at 1 Hz with GNSS noise the enter lags the true entry by up to a second or two.
        let lead = try Self.time(of: enter).timeIntervalSince(try Self.time(of: approaches[0]))
        #expect(lead >= 28 && lead <= 33, "lead \(lead) s")

        let without = try GeofenceExecutable.run(["replay", log.path, "--fences", fences.path, "--format", "jsonl"])
        #expect(!without.standardOutput.contains("\"type\":\"approach\""), "no --approach, no alarm")

        // The daemon: `run --approach` stores the alarm with the regions, so a later run without --fences has it.
        let store = directory.appendingPathComponent("unit.db").path
        for arguments in [["--fences", fences.path, "--approach", "30"], []] {
            let run = try GeofenceExecutable.run(
                ["run", "--store", store, "--nmea", log.path, "--format", "jsonl"] + arguments)
            try #require(run.status == 0, "\(run.standardError)")
            let alarms = run.standardOutput.split(separator: "\n").filter { $0.contains("\"type\":\"approach\"") }
            #expect(alarms.count == 1 && alarms[0].contains("\"region\":\"station\""),
                    "run \(arguments): \(run.standardOutput)")
        }
    }

    @Test("--approach outside 0 < T <= 300 is a usage error naming the value", arguments: ["0", "-3", "301", "soon"])
    func badLeadTime(text: String) throws {
        let outcome = try GeofenceExecutable.run(["replay", "x.nmea", "--fences", "f.csv", "--approach", text])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--approach \(text): expected seconds"), "\(outcome.standardError)")
    }

    /// The "time" of a JSON line, ISO 8601 with or without milliseconds.
    private static func time(of line: String) throws -> Date {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        let text = try #require(object["time"] as? String)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions =
            text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return try #require(formatter.date(from: text), "bad time \(text)")
    }
}
