import Foundation
import GeofencingTestSupport
import Testing

/// `geofence run` checks its whole command line (every sink: the command found, the MQTT URL valid) before
/// `--fences` touches the store: a rejected command line leaves the store byte-identical, and creates none.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct RunCommandLineTests {
    @Test(arguments: [
        (["--exec", "/nonexistent/notify"], "no executable file"),
        (["--exec", "geofence-no-such-command --flag"], "not found in PATH"),
        (["--exec", "'unterminated"], "--exec"),
        (["--mqtt", "mqtt://localhost/vehicle/7\nevents"], "--mqtt"),
        (["--mqtt", "mqtt://localhost/vehicle/\u{1B}[2J"], "--mqtt"),
        (["--format", "yaml"], "--format"),
    ])
    func rejectedCommandLineLeavesTheStoreAsItWas(badArguments: [String], message: String) throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, nmea, _) = try DaemonSecurityTests.scenario(in: directory)
        let store = directory.appendingPathComponent("unit.db").path
        let imported = try GeofenceExecutable.run(["fences", "import", fences.path, "--store", store])
        try #require(imported.status == 0, "\(imported.standardError)")
        let others = directory.appendingPathComponent("others.csv")
        try DaemonFixtures.writeFences([(id: "C", center: DaemonFixtures.east(500), radius: 40)], to: others)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))

        let outcome = try GeofenceExecutable.run(
            ["run", "--store", store, "--fences", others.path, "--nmea", nmea.path] + badArguments)
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the store changed")
        let listed = try GeofenceExecutable.run(["fences", "list", "--store", store])
        #expect(!listed.standardOutput.contains("\nC,"), "C was imported: \(listed.standardOutput)")

        let fresh = directory.appendingPathComponent("fresh.db").path
        let refused = try GeofenceExecutable.run(
            ["run", "--store", fresh, "--fences", others.path, "--nmea", nmea.path] + badArguments)
        #expect(refused.status != 0)
        #expect(!FileManager.default.fileExists(atPath: fresh), "a store was created for a rejected command line")
    }
}
