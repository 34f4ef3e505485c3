import Foundation
import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `geofence run --exec`: what the command prints goes to the daemon's log (standard error), never into the event
/// stream; at a stop, the command running and what it started end (SIGTERM, then SIGKILL).
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct DaemonExecOutputTests {
    /// A command that prints a forged event line and a megabyte on its standard output, and a terminal escape on its
    /// standard error: standard output holds the real events and nothing else; the log holds the command's lines,
    /// prefixed and escaped, and at most the per-event limit of them.
    @Test func commandOutputGoesToTheLogNeverToTheEventStream() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, nmea, _) = try DaemonSecurityTests.scenario(in: directory)
        let hook = directory.appendingPathComponent("noisy.sh")
        try """
            #!/bin/sh
            cat > /dev/null
            echo '{"seq":999,"type":"enter","region":"FORGED","time":"2008-03-03T22:25:13Z","lat":0,"lon":0,"state":"inside","inferred":false}'
            head -c 1000000 /dev/zero | tr '\\000' 'z'
            printf 'title \\033]0;owned\\007 set\\n' >&2

            """.write(to: hook, atomically: true, encoding: .utf8)
        chmod(hook.path, 0o755)

        let outcome = try GeofenceExecutable.run(
            ["run", "--store", directory.appendingPathComponent("unit.db").path, "--fences", fences.path,
             "--nmea", nmea.path, "--format", "jsonl", "--exec", hook.path])
        #expect(outcome.status == 0, "\(outcome.standardError.prefix(2000))")
        let events = try EventLine.parse(outcome.standardOutput)
        #expect(events.map(\.seq) == Array(1...4), "only the real events: \(outcome.standardOutput.prefix(2000))")
        #expect(!outcome.standardOutput.contains("FORGED"))
        #expect(!outcome.standardOutput.contains("zzzz"))

        let log = outcome.standardError
        #expect(log.contains("exec: \"\(hook.path)\" #1 stdout: {\"seq\":999"), "\(log.prefix(2000))")
        #expect(log.contains("exec: \"\(hook.path)\" #4 stdout: zzzz"), "\(log.suffix(2000))")
        #expect(log.contains("more bytes of output dropped"), "\(log.suffix(2000))")
        #expect(!log.utf8.contains(0x1B), "the escape reached the log raw")
        // Six events, each at most the limit (8 KiB) of output plus the prefixes; not six megabytes.
        #expect(log.utf8.count < 6 * 16_384 + 16_384, "\(log.utf8.count) bytes of log")
    }

    /// SIGTERM to the daemon while its command hangs, ignoring SIGTERM, with a process it started that ignores it
    /// too: the daemon stops, and neither process survives it (checked by pid).
    @Test func stopEndsTheCommandAndWhatItStarted() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, _, epochs) = try DaemonSecurityTests.scenario(in: directory)
        let pidsFile = directory.appendingPathComponent("pids").path
        let hook = directory.appendingPathComponent("stubborn.sh")
        try """
            #!/bin/sh
            trap '' TERM
            sleep 600 &
            echo "$$ $!" >> "\(pidsFile)"
            wait

            """.write(to: hook, atomically: true, encoding: .utf8)
        chmod(hook.path, 0o755)
        let daemon = try DaemonProcess(
            ["run", "--store", directory.appendingPathComponent("unit.db").path, "--fences", fences.path,
             "--nmea", "-", "--format", "jsonl", "--exec", hook.path],
            output: directory.appendingPathComponent("out"), errors: directory.appendingPathComponent("err"))
        try await daemon.waitForStandardError(containing: "reading NMEA")
        daemon.write(epochs.joined())
        // Each run of the command appends its pid and its sleep's (a run past the 30 s timeout on a slow machine is
        // stopped and the event retried by another run: every one of them must be gone after the stop).
        func processIDs() -> [pid_t] {
            ((try? String(contentsOfFile: pidsFile, encoding: .utf8)) ?? "").split(separator: "\n")
                .filter { $0.split(separator: " ").count == 2 }  // complete lines only
                .flatMap { $0.split(separator: " ").compactMap { pid_t($0) } }
        }
        for _ in 0..<6000 where processIDs().isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        try #require(!processIDs().isEmpty, "the command did not start: \(daemon.standardError)")
        defer { for pid in processIDs() { kill(pid, SIGKILL) } }

        kill(daemon.process.processIdentifier, SIGTERM)
        let status = try await daemon.waitForExit(timeout: .seconds(120))
        #expect(status == 0, "\(daemon.standardError)")
        let pids = processIDs()
        #expect(pids.count >= 2)
        for pid in pids {
            var running = true
            for _ in 0..<500 where running {  // an orphan is reaped by init a moment later
                running = Self.isRunning(pid)
                if running { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(!running, "pid \(pid) outlived the daemon: \(daemon.standardError)")
        }
    }

    /// Whether `pid` runs (a zombie does not).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }
}
