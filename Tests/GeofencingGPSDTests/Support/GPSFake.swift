import Foundation
import Synchronization
import GeofencingTestSupport

/// A gpsfake (gpsd-clients) session for tests: gpsd on a port of our choosing, fed from an NMEA log.
///
/// What this does, and why (see ../shared/notes/gpsd-testing.md):
/// - started with posix_spawn, with an empty signal mask and default SIGINT/SIGTERM/SIGPIPE: a child of a
///   `swift test` process otherwise inherits a mask that blocks SIGINT and SIGTERM and ignores `stop()`;
/// - in a process group of its own, so gpsfake and its gpsd can be killed together;
/// - repeating mode (no `-1`, which spins until its `-W` timeout at the end of the log), paced with `-c`
///   (the default pacing of 0 lets gpsd swallow the log before a client listens);
/// - `stop()` sends SIGINT, waits, then SIGKILLs the group; it removes the SysV shared-memory segment gpsd made
///   for the port (key 0x4770 + port, as gpsfake derives it).
final class GPSFake: Sendable {
    let port: UInt16
    let logPath: String
    let processID: pid_t
    private let exited = Mutex(false)
    private let stopped = Mutex(false)

    /// Starts gpsfake on `port` with `log`, `cycle` seconds between sentences. With `nowait`, gpsd reads the
    /// log from the start instead of waiting for a client (gpsfake's `-n`). Returns once gpsd accepts
    /// connections, or throws after `timeout`. Waits with Task.sleep: tests share a small pool of threads.
    static func start(
        log: String, port: UInt16, cycle: Double = 0.05, nowait: Bool = false, timeout: Duration = .seconds(10)
    ) async throws -> GPSFake {
        let gpsfake = try GPSFake(log: log, port: port, cycle: cycle, nowait: nowait)
        let deadline = ContinuousClock.now + timeout
        while !TCPProbe.accepts(port: port) {
            if ContinuousClock.now > deadline || gpsfake.hasExited {
                await gpsfake.stop()
                throw GPSFakeError(message: "gpsd on port \(port) did not come up: \(gpsfake.output)")
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return gpsfake
    }

    private init(log: String, port: UInt16, cycle: Double, nowait: Bool) throws {
        self.port = port
        self.logPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("gpsfake-\(port)-\(UInt32.random(in: 0 ... .max)).log").path
        var arguments = [TestEnvironment.gpsfakePath, "-c", String(cycle), "-P", String(port)]
        if nowait { arguments.append("-n") }
        arguments.append(log)
        processID = try Self.spawn(arguments, output: logPath)
    }

    /// gpsfake's and gpsd's output so far.
    var output: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Whether gpsfake has ended (reaps it if so).
    var hasExited: Bool {
        exited.withLock { exited in
            if !exited {
                var status: Int32 = 0
                exited = waitpid(processID, &status, WNOHANG) == processID
            }
            return exited
        }
    }

    /// Kills gpsd alone with SIGKILL, as a crash would; gpsfake notices its daemon died and exits on its own.
    func crashDaemon() {
        for child in Self.children(of: processID) { kill(child, SIGKILL) }
    }

    /// Ends gpsfake and gpsd: SIGINT, up to 3 s for a clean exit, then SIGKILL for the whole group; removes gpsd's
    /// shared-memory segment and the output file. Idempotent.
    func stop() async {
        if !hasExited {
            kill(-processID, SIGINT)
            let deadline = ContinuousClock.now + .seconds(3)
            while !hasExited && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        }
        kill(-processID, SIGKILL)  // gpsfake if it hung, a gpsd left behind in the group
        cleanUp()
        stopped.withLock { $0 = true }
    }

    /// The fallback when a test ends early: SIGKILL at once, no waiting for a clean exit.
    deinit {
        guard !stopped.withLock({ $0 }) else { return }
        kill(-processID, SIGKILL)
        cleanUp()
    }

    private func cleanUp() {
        exited.withLock { exited in
            if !exited {
                var status: Int32 = 0
                _ = waitpid(processID, &status, 0)  // after SIGKILL: at once
                exited = true
            }
        }
        let segment = shmget(key_t(bitPattern: 0x4770_0000 | UInt32(port)), 0, 0)
        if segment >= 0 { _ = shmctl(segment, IPC_RMID, nil) }
        try? FileManager.default.removeItem(atPath: logPath)
        // gpsd's control socket, named by gpsfake after its own process ID (`-F /tmp/gpsfake-PID.sock`); gpsd
        // leaves it behind.
        try? FileManager.default.removeItem(atPath: "/tmp/gpsfake-\(processID).sock")
    }

    private static func spawn(_ arguments: [String], output: String) throws -> pid_t {
        try ServerSpawn.start(arguments, output: output, newProcessGroup: true)
    }

    /// The children of a process, from /proc (/proc/PID/task/PID/children).
    private static func children(of processID: pid_t) -> [pid_t] {
        let path = "/proc/\(processID)/task/\(processID)/children"
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}

struct GPSFakeError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
