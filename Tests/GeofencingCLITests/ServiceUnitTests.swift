import Foundation
import GeofencingTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// systemd/geofence.service is a unit systemd accepts, running the built daemon unprivileged, after gpsd,
/// restarted on failure, sandboxed to a `systemd-analyze security` exposure of at most 2.0; and the daemon runs, with
/// every sink on, under the unit's system call filter, address families, MemoryDenyWriteExecute, LockPersonality and
/// RestrictNamespaces (applied by scripts/service-sandbox.py: systemd is not PID 1 here).
@Suite struct ServiceUnitTests {
    static let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("systemd/geofence.service")
    static let analyzer = "/usr/bin/systemd-analyze"
    static let sandbox = unit.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/service-sandbox.py").path
    /// The sandbox script's interpreter and its seccomp module (Debian python3-seccomp).
    static let python = "/usr/bin/python3"
    static var hasSeccomp: Bool {
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/python3/dist-packages")) ?? []
        return FileManager.default.isExecutableFile(atPath: python) && modules.contains { $0.hasPrefix("seccomp.") }
    }

    /// The settings the sandbox consists of, each checked by `systemd-analyze security` or the sandbox test.
    static let hardening = [
        "CapabilityBoundingSet=", "PrivateUsers=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
        "PrivateDevices=yes", "ProtectKernelTunables=yes", "ProtectKernelModules=yes", "ProtectKernelLogs=yes",
        "ProtectClock=yes", "ProtectControlGroups=yes", "ProtectProc=invisible", "RestrictNamespaces=yes",
        "LockPersonality=yes", "MemoryDenyWriteExecute=yes", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
        "SystemCallArchitectures=native", "SystemCallFilter=@system-service",
    ]

    @Test func unitKeepsItsPromises() throws {
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        for line in ["After=gpsd.service network-online.target", "DynamicUser=yes", "Restart=on-failure",
                     "StateDirectory=geofence", "UMask=0077", "NoNewPrivileges=yes",
                     "ExecReload=/bin/kill -HUP $MAINPID"]
            + Self.hardening {
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
            .replacingOccurrences(of: "/usr/bin/geofence", with: GeofenceExecutable.path)
        let copy = directory.appendingPathComponent("geofence.service")
        try text.write(to: copy, atomically: true, encoding: .utf8)
        // The unit's Documentation=man:geofence(1), which verify looks up: the page the built executable prints, as
        // the package installs it.
        let manual = directory.appendingPathComponent("man/man1")
        try FileManager.default.createDirectory(at: manual, withIntermediateDirectories: true)
        let page = try GeofenceExecutable.run(["help", "--man"])
        try page.standardOutput.write(
            to: manual.appendingPathComponent("geofence.1"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.analyzer)
        process.arguments = ["verify", copy.path]
        process.environment = ProcessInfo.processInfo.environment
            .merging(["MANPATH": directory.appendingPathComponent("man").path]) { _, manual in manual }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }

    /// The unit with the installed path replaced by the built executable, in `directory`.
    static func builtUnit(in directory: URL) throws -> URL {
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
            .replacingOccurrences(of: "/usr/bin/geofence", with: GeofenceExecutable.path)
        let copy = directory.appendingPathComponent("geofence.service")
        try text.write(to: copy, atomically: true, encoding: .utf8)
        return copy
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: analyzer), "needs systemd-analyze"))
    func exposureIsAtMostTwo() throws {
        let analysis = try ProgramRun.run(Self.analyzer, ["security", "--offline=yes", Self.unit.path])
        let marker = "Overall exposure level for geofence.service: "
        let line = try #require(analysis.output.split(separator: "\n").first { $0.contains(marker) }, "\(analysis)")
        // "→ Overall exposure level for geofence.service: 1.1 OK 🙂"
        let verdict = line[try #require(line.range(of: marker)).upperBound...]
        let score = try #require(Double(verdict.prefix { $0 != " " }), "\(line)")
        print("systemd-analyze security --offline=yes systemd/geofence.service: \(score)")
        #expect(score <= 2.0, "\(analysis.output)")
    }

    /// The daemon with standard output, --exec and --mqtt (a real mosquitto on loopback when installed) prints the
    /// same events inside the sandbox as outside it; and the sandbox bites: a namespace, a write+execute mapping and
    /// a packet socket are refused in it.
    @Test(.enabled(if: hasSeccomp && FileManager.default.isExecutableFile(atPath: analyzer)
                   && GeofenceExecutable.isBuilt, "needs python3-seccomp, systemd-analyze and the geofence executable"))
    func daemonRunsInTheUnitsSandbox() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let unit = try Self.builtUnit(in: directory)
        for (refused, program) in [(["/usr/bin/unshare", "-U", "true"], "a user namespace"),
                                   ([Self.python, "-c", "import mmap; mmap.mmap(-1, 4096, prot=7)"],
                                    "a mapping both writable and executable"),
                                   ([Self.python, "-c", "import socket; socket.socket(socket.AF_PACKET, 3)"],
                                    "an AF_PACKET socket")] {
            let outcome = try ProgramRun.run(Self.python, [Self.sandbox, unit.path, "--"] + refused)
            #expect(outcome.status != 0, "the sandbox allowed \(program): \(outcome.output)")
        }

        let (fences, nmea, _) = try DaemonSecurityTests.scenario(in: directory)
        var broker: pid_t?
        var sinks = ["--exec", "/bin/true"]
        if FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") {
            let port = TCPProbe.freePort()
            let configuration = directory.appendingPathComponent("mosquitto.conf")
            try "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n"
                .write(to: configuration, atomically: true, encoding: .utf8)
            broker = try ServerSpawn.start(["/usr/sbin/mosquitto", "-c", configuration.path],
                                           output: directory.appendingPathComponent("mosquitto.log").path)
            let deadline = ContinuousClock.now + .seconds(30)
            while !TCPProbe.accepts(port: port), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            sinks += ["--mqtt", "mqtt://127.0.0.1:\(port)/geofence"]
        }
        defer {
            if let broker {
                kill(broker, SIGKILL)
                waitpid(broker, nil, 0)
            }
        }
        func daemon(_ store: String) -> [String] {
            ["run", "--store", directory.appendingPathComponent(store).path, "--nmea", nmea.path, "--fences",
             fences.path, "--format", "jsonl"] + sinks
        }
        let sandboxed = try DaemonSecurityTests.run(
            Self.python, [Self.sandbox, unit.path, "--", GeofenceExecutable.path] + daemon("sandboxed.db"))
        #expect(sandboxed.status == 0, "\(sandboxed.standardError)")
        #expect(!sandboxed.standardError.contains("cannot") && !sandboxed.standardError.contains("retrying"),
                "a sink failed in the sandbox: \(sandboxed.standardError)")
        let plain = try GeofenceExecutable.run(daemon("plain.db"))
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(sandboxed.standardOutput == plain.standardOutput && !plain.standardOutput.isEmpty)
    }
}
