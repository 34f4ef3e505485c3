import Foundation
import GeofencingTestSupport
import Testing

/// The events are the product: `geofence replay` of every shared NMEA log against the 12,866 SEQ stops, and
/// `geofence demo`, must print exactly what Fixtures/replay-golden holds (scripts/gen-replay-golden.sh writes it).
/// A refactoring that changes one byte of any event, sequence number, time or distance fails here.
struct ReplayGoldenTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/replay-golden")
    static let stops = "pois/seq-stops.txt"

    /// One expected output: its name (`replay/LOG`, `demo/nmea`), line count and SHA-256.
    struct Digest: Sendable, CustomStringConvertible {
        var name: String
        var lines: Int
        var sha256: String
        var description: String { name }
    }

    static let digests: [Digest] = {
        let text = (try? String(contentsOf: fixtures.appendingPathComponent("digests.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, let lines = Int(fields[1]) else { return nil }
            return Digest(name: String(fields[0]), lines: lines, sha256: String(fields[2]))
        }
    }()

    static let sha256sum = "/usr/bin/sha256sum"

    /// Line count and SHA-256 of `text`, by coreutils' sha256sum (Foundation on Linux has no SHA-256).
    static func digest(of text: String) throws -> (lines: Int, sha256: String) {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("output")
        try Data(text.utf8).write(to: file)
        let (status, output) = try ProgramRun.run(sha256sum, [file.path])
        #expect(status == 0, "\(output)")
        // Lines as wc -l counts them: newline bytes (an NMEA line's CR LF is one Character, so count bytes).
        return (text.utf8.count { $0 == UInt8(ascii: "\n") }, String(output.prefix(while: { $0 != " " })))
    }

    @Test("replay of a shared log against the SEQ stops prints the expected events",
          .enabled(if: SharedData.isAvailable(stops) && GeofenceExecutable.isBuilt
                   && FileManager.default.isExecutableFile(atPath: sha256sum),
                   "needs ../shared/data, the geofence executable and sha256sum"),
          arguments: digests.filter { $0.name.hasPrefix("replay/") })
    func replayIsUnchanged(_ expected: Digest) throws {
        let log = String(expected.name.dropFirst("replay/".count))
        let outcome = try GeofenceExecutable.run([
            "replay", SharedData.url("nmea/\(log)").path, "--fences", SharedData.url(Self.stops).path,
            "--format", "jsonl", "--determinations", "all",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        // The events other than determinations first, in full, so that a change there shows as a diff.
        let events = outcome.standardOutput.split(separator: "\n").filter { !$0.contains("\"type\":\"state\"") }
        let eventsFile = Self.fixtures.appendingPathComponent("\(log).events.jsonl")
        let expectedEvents = ((try? String(contentsOf: eventsFile, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(events == expectedEvents)
        let (lines, sha256) = try Self.digest(of: outcome.standardOutput)
        #expect(lines == expected.lines && sha256 == expected.sha256,
                "\(log): \(lines) lines, SHA-256 \(sha256); expected \(expected.lines), \(expected.sha256)")
    }

    @Test("the demo prints the expected events and writes the expected NMEA log",
          .enabled(if: GeofenceExecutable.isBuilt && FileManager.default.isExecutableFile(atPath: sha256sum),
                   "needs the geofence executable and sha256sum"))
    func demoIsUnchanged() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try GeofenceExecutable.run(["demo", "--map", "map.html", "--nmea", "demo.nmea"], in: directory)
        let jsonl = try GeofenceExecutable.run(["demo", "--format", "jsonl", "--map", "map.html"], in: directory)
        #expect(text.status == 0 && jsonl.status == 0, "\(text.standardError)\(jsonl.standardError)")
        #expect(text.standardOutput
                == (try String(contentsOf: Self.fixtures.appendingPathComponent("demo.txt"), encoding: .utf8)))
        #expect(jsonl.standardOutput
                == (try String(contentsOf: Self.fixtures.appendingPathComponent("demo.jsonl"), encoding: .utf8)))
        let nmea = try String(contentsOf: directory.appendingPathComponent("demo.nmea"), encoding: .utf8)
        let (lines, sha256) = try Self.digest(of: nmea)
        let expected = try #require(Self.digests.first { $0.name == "demo/nmea" })
        #expect(lines == expected.lines && sha256 == expected.sha256)
    }
}
