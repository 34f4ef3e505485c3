import Foundation
import GeofencingTestSupport

/// A real gpsd whose device is a UDP port the test sends NMEA to (`gpsd -N -n -b udp://127.0.0.1:FEED`), for tests
/// that kill and restart gpsd in the middle of a drive.
///
/// Why not gpsfake: gpsfake replays its log from the first sentence when it (or its gpsd) starts again, so a
/// restarted gpsd would report times from before the crash. Here the test decides which sentence gpsd hears and
/// when: what is sent while gpsd is dead is lost, as a receiver's output is while gpsd restarts, and GNSS time only
/// moves forward. Measured with gpsd 3.22: one datagram per sentence works; gpsd reports each epoch once after the
/// first, which it takes to learn which sentence ends an epoch (../shared/notes/gpsd-testing.md).
///
/// gpsd runs in the foreground (-N), reads its device without waiting for a client (-n), never writes to it (-b),
/// listens on `port` on the loopback, with its own control socket and its own shared-memory key (the one gpsfake
/// would use for the port), so it never meets another gpsd of the machine or of a parallel test.
final class UDPFedGPSD: @unchecked Sendable {
    // @unchecked: used by one test task at a time; `processID` changes only in start/kill, called by that task.
    /// gpsd's TCP port for clients.
    let port: UInt16
    /// The UDP port gpsd reads NMEA from.
    let feedPort: UInt16
    private(set) var processID: pid_t = 0
    private let sender: Int32
    private let controlSocket: String
    private let logPath: String

    init() throws {
        port = TCPProbe.freePort()
        feedPort = Self.freeUDPPort()
        sender = socket(AF_INET, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard sender >= 0 else { throw GPSFakeError(message: "UDP socket: \(String(cString: strerror(errno)))") }
        let name = "gpsd-udp-\(port)-\(UInt32.random(in: 0 ... .max))"
        controlSocket = FileManager.default.temporaryDirectory.appendingPathComponent(name + ".sock").path
        logPath = FileManager.default.temporaryDirectory.appendingPathComponent(name + ".log").path
    }

    /// The shared-memory key gpsd gets (gpsfake's formula, so `GPSFake`'s clean-up and ours agree).
    var sharedMemoryKey: UInt32 { 0x4770_0000 | UInt32(port) }

    /// Starts gpsd and returns once it accepts clients on `port` and has bound `feedPort`; throws after `timeout`.
    func start(timeout: Duration = .seconds(10)) async throws {
        let gpsd = TestEnvironment.executable("gpsd") ?? "/usr/sbin/gpsd"
        processID = try ServerSpawn.start(
            ["/usr/bin/env", "GPSD_SHM_KEY=0x" + String(sharedMemoryKey, radix: 16), gpsd, "-N", "-n", "-b",
             "-S", String(port), "-F", controlSocket, "udp://127.0.0.1:\(feedPort)"],
            output: logPath, appending: true, newProcessGroup: true)
        let deadline = ContinuousClock.now + timeout
        while !(TCPProbe.accepts(port: port) && Self.isBound(udpPort: feedPort)) {
            var status: Int32 = 0
            if ContinuousClock.now > deadline || waitpid(processID, &status, WNOHANG) == processID {
                throw GPSFakeError(message: "gpsd on port \(port) did not come up: \(output)")
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Kills gpsd with SIGKILL, as a crash would, and reaps it.
    func crash() {
        guard processID > 0 else { return }
        kill(-processID, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(processID, &status, 0)
        processID = 0
    }

    /// Sends one sentence ("$...*hh", without line end) to gpsd's device port. Sent while gpsd is down, it is lost.
    func send(_ sentence: String) {
        let datagram = Array((sentence + "\r\n").utf8)
        var address = TCPProbe.loopback(port: feedPort)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                datagram.withUnsafeBytes {
                    sendto(sender, $0.baseAddress, $0.count, 0, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// What gpsd printed, over all its starts.
    var output: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Kills gpsd if it runs, removes its shared memory, control socket and log, closes the sender.
    func stop() {
        crash()
        let segment = shmget(key_t(bitPattern: sharedMemoryKey), 0, 0)
        if segment >= 0 { _ = shmctl(segment, IPC_RMID, nil) }
        try? FileManager.default.removeItem(atPath: controlSocket)
        try? FileManager.default.removeItem(atPath: logPath)
        close(sender)
    }

    /// A UDP port nobody has bound now, chosen by the kernel.
    static func freeUDPPort() -> UInt16 {
        let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        defer { close(probe) }
        var address = TCPProbe.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(probe, pointer, length) == 0 ? getsockname(probe, pointer, &length) : -1
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether some socket of the machine has bound UDP `port` (from /proc/net/udp).
    static func isBound(udpPort port: UInt16) -> Bool {
        let suffix = ":" + String(format: "%04X", port)
        return ProcFile.text("/proc/net/udp").split(separator: "\n").dropFirst().contains { line in
            line.split(separator: " ").dropFirst().first?.hasSuffix(suffix) == true
        }
    }
}
