import Foundation
import GeofencingTestSupport
import Testing

/// systemd/geofence.service is a unit systemd accepts, running the built daemon unprivileged, after gpsd,
/// restarted on failure.
@Suite struct ServiceUnitTests {
    static let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("systemd/geofence.service")
    static let analyzer = "/usr/bin/systemd-analyze"

    @Test func unitKeepsItsPromises() throws {
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        for line in ["After=gpsd.service network-online.target", "DynamicUser=yes", "Restart=on-failure",
                     "StateDirectory=geofence", "UMask=0077", "NoNewPrivileges=yes", "ExecReload=/bin/kill -HUP $MAINPID"] {
            #expect(lines.contains(line), "missing: \(line)")
        }
        #expect(!text.contains("User=root"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: analyzer) && GeofenceExecutable.isBuilt,
                   "needs systemd-analyze and the geofence executable"))
    func systemdAcceptsTheUnit() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The unit names the installed path; verify it against the built executable instead.
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/geofence", with: GeofenceExecutable.path)
        let copy = directory.appendingPathComponent("geofence.service")
        try text.write(to: copy, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.analyzer)
        process.arguments = ["verify", copy.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }
}
