import Foundation
import GeofencingTestSupport
import Testing

/// Identifiers printed for people (`fences list`, text events, log lines) carry no control character to the
/// terminal: escapes, not the raw bytes. JSON output keeps them exactly, JSON-escaped.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct HumanOutputEscapingTests {
    /// Clears the screen, sets the window title, and (C1 CSI) would move the cursor.
    static let hostile = "\u{1B}[2J\u{1B}]0;owned\u{07}stop\u{9B}1A"
    static let escaped = "\\e[2J\\e]0;owned\\u{7}stop\\u{9b}1A"

    static func controlCharacters(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || (0x7F..<0xA0).contains($0.value)) }
    }

    @Test func fencesListTextEventsAndLogLinesEscapeIdentifiers() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, nmea, _) = try DaemonSecurityTests.scenario(in: directory)
        let fences = directory.appendingPathComponent("hostile.csv")
        let centre = DaemonFixtures.east(300)
        try "id,lat,lon,radius_m\n\"\(Self.hostile)\",\(centre.latitude),\(centre.longitude),50\n"
            .write(to: fences, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("unit.db").path
        let imported = try GeofenceExecutable.run(["fences", "import", fences.path, "--store", store])
        try #require(imported.status == 0, "\(imported.standardError)")

        let listed = try GeofenceExecutable.run(["fences", "list", "--store", store])
        #expect(listed.status == 0)
        #expect(Self.controlCharacters(listed.standardOutput).isEmpty, "\(listed.standardOutput.debugDescription)")
        #expect(listed.standardOutput.contains("\n\(Self.escaped),circle,"),
                "\(listed.standardOutput.debugDescription)")

        let text = try GeofenceExecutable.run(["replay", nmea.path, "--fences", fences.path])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(Self.controlCharacters(text.standardOutput).isEmpty, "\(text.standardOutput.debugDescription)")
        #expect(text.standardOutput.contains(" enter  \(Self.escaped)  "), "\(text.standardOutput.debugDescription)")

        // JSON keeps the identifier exactly.
        let json = try GeofenceExecutable.run(["replay", nmea.path, "--fences", fences.path, "--format", "jsonl"])
        let regions = try EventLine.parse(json.standardOutput).map(\.region)
        #expect(!regions.isEmpty && regions.allSatisfy { $0 == Self.hostile })

        let removed = try GeofenceExecutable.run(["fences", "remove", Self.hostile, "--store", store])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(Self.controlCharacters(removed.standardError).isEmpty, "\(removed.standardError.debugDescription)")
        #expect(removed.standardError.contains(Self.escaped), "\(removed.standardError.debugDescription)")
        let missing = try GeofenceExecutable.run(["fences", "remove", Self.hostile, "--store", store])
        #expect(missing.status == 1)
        #expect(Self.controlCharacters(missing.standardError).isEmpty, "\(missing.standardError.debugDescription)")
    }
}
