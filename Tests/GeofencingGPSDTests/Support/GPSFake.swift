import Foundation
import Synchronization
import GeofencingTestSupport

/// A gpsfake (gpsd-clients) session for tests: gpsd on a port of our choosing, fed from an NMEA log.
///
/// What this does, and why (see ../shared/notes/gpsd-testing.md):
/// - started with posix_spawn, with an empty signal mask and default SIGINT/SIGTERM/SIGPIPE: a child of a
///   `swift test` process otherwise inherits a mask that blocks SIGINT and SIGTERM and ignores `stop()`;
/// - in a process group of its own, so gpsfake and its gpsd can be killed together;
/// - paced with `-c` (the default pacing of 0 lets gpsd swallow the log before a client listens);
/// - repeating the log, or with an end marker playing it once (`-1`, with `-W 0`: no timeout, so gpsfake never ends
///   the session on its own) with gpsfake's own client watching gpsd's sentences into its output (`-p`; it watches
///   before gpsfake feeds the first sentence): the end of the pass is seen in what gpsd read (`finishPass`), never
///   guessed from a pause;
/// - `stop()` sends SIGINT, waits, then SIGKILLs the group; it removes the SysV shared-memory segment gpsd made
///   for the port (key 0x4770 + port, as gpsfake derives it).
final class GPSFake: Sendable {
    let port: UInt16
    let logPath: String
    let processID: pid_t
    /// The sentence the log ends with, when it is played once.
    let endMarker: String?
    private let exited = Mutex(false)
    private let stopped = Mutex(false)

    /// Starts gpsfake on `port` with `log`, `cycle` seconds between sentences. With `nowait`, gpsd reads the
    /// log from the start instead of waiting for a client (gpsfake's `-n`). Returns once gpsd accepts
    /// connections, or throws after `timeout`. With `endMarker`, the last line of `log`, plays the log once
    /// (`finishPass` waits for it).
    ///
    /// The wait for the port blocks this thread instead of suspending: a test starts its clients right after this
    /// returns, while gpsd already reads the log's padding, and a suspended task can wait long for a thread of the
    /// shared pool on a busy machine; gpsd comes up within a moment.
    static func start(
        log: String, port: UInt16, cycle: Double = 0.05, nowait: Bool = false, endMarker: String? = nil,
        timeout: Duration = .seconds(30)
    ) async throws -> GPSFake {
        let gpsfake = try GPSFake(log: log, port: port, cycle: cycle, nowait: nowait, endMarker: endMarker)
        let deadline = ContinuousClock.now + timeout
        while !TCPProbe.accepts(port: port) {
            if ContinuousClock.now > deadline || gpsfake.hasExited {
                await gpsfake.stop()
                throw GPSFakeError(message: "gpsd on port \(port) did not come up: \(gpsfake.output)")
            }
            usleep(10_000)
        }
        return gpsfake
    }

    private init(log: String, port: UInt16, cycle: Double, nowait: Bool, endMarker: String?) throws {
        self.port = port
        self.endMarker = endMarker
        self.logPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("gpsfake-\(port)-\(UInt32.random(in: 0 ... .max)).log").path
        var arguments = [TestEnvironment.gpsfakePath, "-c", String(cycle), "-P", String(port)]
        if nowait { arguments.append("-n") }
        if endMarker != nil { arguments += ["-1", "-W", "0", "-p"] }
        arguments.append(log)
        processID = try Self.spawn(arguments, output: logPath)
    }

    /// Waits until gpsd has read the end marker, then kills gpsd (SIGKILL). gpsd handles one sentence at a time
    /// and sends its reports on it to every client before it takes the next, so once the marker has come through,
    /// every report of the pass is on its way to each client, and the end of the connection follows it: a client
    /// has the whole pass when it sees its connection close. False if the marker did not come by `timeout`, a
    /// deadline that only bounds a hang.
    func finishPass(timeout: Duration = .seconds(300)) async -> Bool {
        guard let endMarker else { return false }
        let deadline = ContinuousClock.now + timeout
        var played = false
        while true {
            played = output.contains(endMarker)
            if played || ContinuousClock.now > deadline || hasExited { break }
            try? await Task.sleep(for: .milliseconds(20))
        }
        crashDaemon()
        return played
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
