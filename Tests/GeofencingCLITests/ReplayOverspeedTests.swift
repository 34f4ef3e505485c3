// `geofence replay` of a drive through a speed zone: the overspeed and overspeed_end lines, field by field, with a
// speed limit alone and under a schedule (active, inactive, and a window closing during the episode).
import Foundation
import GeofencingTestSupport
import Testing

@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct ReplayOverspeedTests {
    /// Replays the whole drive against the zone (with `schedule`) and returns its overspeed lines.
    private func replay(schedule: String?, start: Date = SpeedZoneFixtures.start) throws -> [[String: Any]] {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("drive.nmea")
        try SpeedZoneFixtures.nmea(0..<SpeedZoneFixtures.count, start: start).write(to: log, atomically: true, encoding: .utf8)
        let fences = directory.appendingPathComponent("zone.geojson")
        try SpeedZoneFixtures.fenceFile(schedule: schedule).write(to: fences, atomically: true, encoding: .utf8)
        let outcome = try GeofenceExecutable.run(["replay", log.path, "--fences", fences.path, "--format", "jsonl"])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        return try SpeedZoneFixtures.overspeedLines(outcome.standardOutput)
    }

    /// The GNSS time of second `second` of the drive as the lines write it (whole seconds: no fraction).
    private func time(_ second: Int, start: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: start + Double(second))
    }

    private func expectLine(
        _ line: [String: Any], _ type: String, second: Int, maximum: Double, over: Double,
        start: Date = SpeedZoneFixtures.start, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(line["type"] as? String == type, sourceLocation: sourceLocation)
        #expect(line["region"] as? String == "school", sourceLocation: sourceLocation)
        #expect(line["state"] as? String == "inside", sourceLocation: sourceLocation)
        #expect(line["time"] as? String == time(second, start: start), "\(line)", sourceLocation: sourceLocation)
        #expect((line["max_speed_kmh"] as? NSNumber)?.doubleValue == maximum, "\(line)", sourceLocation: sourceLocation)
        #expect((line["over_limit_s"] as? NSNumber)?.doubleValue == over, "\(line)", sourceLocation: sourceLocation)
        #expect(line["distance_m"] is NSNumber, "\(line)", sourceLocation: sourceLocation)
        #expect(line["inferred"] as? Bool == false, sourceLocation: sourceLocation)
    }

    @Test("a speed limit: overspeed 5 s after going over, overspeed_end 5 s back under, with max and time over")
    func speedLimit() throws {
        let lines = try replay(schedule: nil)
        try #require(lines.count == 2, "\(lines)")
        expectLine(lines[0], "overspeed", second: 15, maximum: 74.1, over: 5)
        expectLine(lines[1], "overspeed_end", second: 55, maximum: 74.1, over: 40)
        let sequences = lines.compactMap { ($0["seq"] as? NSNumber)?.intValue }
        #expect(sequences.count == 2 && sequences[1] == sequences[0] + 1, "\(sequences)")
    }

    @Test("under a schedule: the same lines in an open window, none outside the windows")
    func scheduled() throws {
        let open = try replay(schedule: "Australia/Brisbane Mo-Fr 07:00-09:00")
        try #require(open.count == 2, "\(open)")
        expectLine(open[0], "overspeed", second: 15, maximum: 74.1, over: 5)
        expectLine(open[1], "overspeed_end", second: 55, maximum: 74.1, over: 40)
        #expect(try replay(schedule: "Australia/Brisbane Sa-Su 07:00-09:00").isEmpty, "weekend-only zone on a Monday")
    }

    @Test("a window closing during the episode ends it at once, at its first fix after the close")
    func windowClosesDuringEpisode() throws {
        // The drive 30 s earlier: t = 30 is 07:30:00, when the window closes, 15 s into the reported episode.
        let start = SpeedZoneFixtures.start - 30
        let lines = try replay(schedule: "Australia/Brisbane Mo 07:00-07:30", start: start)
        try #require(lines.count == 2, "\(lines)")
        expectLine(lines[0], "overspeed", second: 15, maximum: 74.1, over: 5, start: start)
        expectLine(lines[1], "overspeed_end", second: 30, maximum: 74.1, over: 20, start: start)
    }
}
