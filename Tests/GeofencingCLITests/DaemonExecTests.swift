import Foundation
import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import Testing

/// `geofence run --exec`: a command per event, never through a shell; one that fails is retried until it succeeds,
/// and no event is lost or reordered meanwhile.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct DaemonExecTests {
    @Test func commandPerEventWithoutAShellAndRetried() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("pwned").path
        // A region name that a shell would run, and a plain one.
        let hostile = "x; touch \(marker)"
        try "id,lat,lon,radius_m\n\"\(hostile)\",\(DaemonFixtures.east(300).latitude),\(DaemonFixtures.east(300).longitude),50\nplain,\(DaemonFixtures.east(700).latitude),\(DaemonFixtures.east(700).longitude),50\n"
            .write(to: directory.appendingPathComponent("fences.csv"), atomically: true, encoding: .utf8)
        // The hook fails its first two calls (exit 3), then appends what it got: variables and stdin.
        let log = directory.appendingPathComponent("hook.log").path
        let counter = directory.appendingPathComponent("calls").path
        let hook = directory.appendingPathComponent("hook.sh")
        try """
            #!/bin/sh
            n=$(cat "\(counter)" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "\(counter)"
            [ $n -le 2 ] && exit 3
            printf '%s|%s|%s|' "$GEOFENCE_SEQ" "$GEOFENCE_TYPE" "$GEOFENCE_REGION" >> "\(log)"
            cat >> "\(log)"
            """.write(to: hook, atomically: true, encoding: .utf8)
        chmod(hook.path, 0o755)
        let drive = try DaemonFixtures.drive(length: 1_000)
        let nmea = directory.appendingPathComponent("drive.nmea")
        try DaemonFixtures.nmea(drive.observations).write(to: nmea, atomically: true, encoding: .utf8)

        let outcome = try GeofenceExecutable.run(
            ["run", "--store", directory.appendingPathComponent("unit.db").path, "--fences",
             directory.appendingPathComponent("fences.csv").path, "--nmea", nmea.path, "--format", "jsonl",
             "--exec", "'\(hook.path)' --unused-argument"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the region name was run by a shell")
        #expect(outcome.standardError.contains("exit"), "the failures are logged: \(outcome.standardError)")

        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        // An enter and an exit for each region (both outside at the first fix: no state event): 4 events, each
        // delivered once, in order.
        #expect(lines.count == 4, "\(lines)")
        for (index, line) in lines.enumerated() {
            let parts = line.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false)
            #expect(parts.count == 4)
            #expect(parts.first == "\(index + 1)[..]".dropLast(4), "in order: \(line)")
            let json = try JSONSerialization.jsonObject(with: Data(parts[3].utf8)) as? [String: Any]
            #expect((json?["seq"] as? NSNumber)?.intValue == index + 1)
            #expect(json?["region"] as? String == String(parts[2]), "stdin and environment agree")
        }
        #expect(lines.contains { $0.contains("|enter|\(hostile)|") })
    }
}
