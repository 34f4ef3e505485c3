// The commands that read the project's wire forms back: `geofence map --events` reads event lines
// (EventRecord.parse), `geofence simulate --start` an ISO 8601 time (ISO8601Time.parse).
import Foundation
import Geofencing
import GeofencingEvents
import GeofencingTestSupport
import Testing

@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct EventLineCommandTests {
    private static let fences = "id,lat,lon,radius_m\nstop-1,-27.5,153.0,100\n"

    private static func event(_ sequence: UInt64, region: String, seconds: Double) -> EventRecord {
        EventRecord(
            sequence: sequence, kind: sequence % 2 == 1 ? .enter : .exit, region: region,
            time: Date(timeIntervalSince1970: seconds), latitude: -27.5, longitude: 153.0001,
            distance: sequence % 2 == 1 ? -3.2 : 0.5, state: sequence % 2 == 1 ? .inside : .outside)
    }

    @Test("map --events reads event lines back: error and blank lines skipped, escapes and fractions kept")
    func mapReadsEventLines() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("fences.csv")
        try Self.fences.write(to: fences, atomically: true, encoding: .utf8)
        let lines = [
            Self.event(1, region: "stop-1", seconds: 1_204_583_113.25).jsonLine,
            EventRecord.errorLine(region: nil, message: "gpsd: connection lost"),
            "",
            Self.event(2, region: "\u{FEFF}stop</script>\u{2028}", seconds: 1_204_583_120).jsonLine,
        ]
        let events = directory.appendingPathComponent("events.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)
        let page = directory.appendingPathComponent("map.html")
        let outcome = try GeofenceExecutable.run(
            ["map", "--fences", fences.path, "--events", events.path, "-o", page.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains(#"{"seq":1,"type":"enter","region":"stop-1","time":"2008-03-03T22:25:13.250Z","#))
        #expect(html.contains(#"{"seq":2,"type":"exit","region":"\ufeffstop\u003c/script\u003e\u2028","#
            + #""time":"2008-03-03T22:25:20Z","#), "the region read back whole, escaped for the page")
    }

    @Test("a malformed event line is refused with the file, the line and the field")
    func malformedEventLine() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("fences.csv")
        try Self.fences.write(to: fences, atomically: true, encoding: .utf8)
        let good = Self.event(1, region: "stop-1", seconds: 1_204_583_113).jsonLine
        let cases = [
            (good.replacingOccurrences(of: "2008-03-03", with: "2008-02-30"),
             #"events.jsonl:3: field time: "2008-02-30T22:25:13Z" is not an ISO 8601 UTC time"#),
            (good.replacingOccurrences(of: #""type":"enter""#, with: #""type":"arrive""#),
             #"events.jsonl:3: field type: unknown event type "arrive""#),
            (#"{"seq":3}"#, "events.jsonl:3: field type missing or of the wrong type"),
            ("seq=3", "events.jsonl:3: not a JSON object"),
        ]
        for (bad, message) in cases {
            let events = directory.appendingPathComponent("events.jsonl")
            try ([good, "", bad].joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)
            let page = directory.appendingPathComponent("m.html").path
            let outcome = try GeofenceExecutable.run(
                ["map", "--fences", fences.path, "--events", events.path, "-o", page])
            #expect(outcome.status == 1)
            #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
        }
    }

    @Test("simulate --start takes RFC 3339 times with fractions and offsets, and refuses dates that do not exist")
    func simulateStart() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("drive.nmea")
        for (start, firstRMC) in [
            ("2024-06-15T12:00:00Z", "$GPRMC,120000.000,"), ("2030-01-02T03:04:05.5+01:00", "$GPRMC,020405.500,"),
            ("2030-01-02T01:34:05.5-00:30", "$GPRMC,020405.500,"),
        ] {
            let outcome = try GeofenceExecutable.run(["simulate", "--start", start, "-o", output.path])
            #expect(outcome.status == 0, "\(start): \(outcome.standardError)")
            let rmc = try String(contentsOf: output, encoding: .utf8).split(whereSeparator: \.isNewline)
                .first { $0.hasPrefix("$GPRMC,") }
            #expect(rmc?.hasPrefix(firstRMC) == true, "\(start): \(String(describing: rmc))")
        }
        for bad in ["2024-02-30T12:00:00Z", "2024-06-15T24:00:00Z", "2024-06-15", "June 15"] {
            let outcome = try GeofenceExecutable.run(["simulate", "--start", bad, "-o", output.path])
            #expect(outcome.status == 2)
            #expect(outcome.standardError.contains("--start \(bad): expected an ISO 8601 UTC time"),
                    "\(outcome.standardError)")
        }
    }
}
