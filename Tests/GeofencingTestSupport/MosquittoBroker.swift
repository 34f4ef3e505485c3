import Foundation

/// A mosquitto broker (Debian package mosquitto) on 127.0.0.1 for one test: its own configuration (mosquitto 2.x
/// wants both an explicit listener and `allow_anonymous true`), no persistence, its log in a temporary directory.
///
/// Started with posix_spawn, an empty signal mask and default SIGTERM (a child of `swift test` would otherwise
/// inherit a blocked SIGTERM; see ../shared/notes/gpsd-testing.md). `stop()` ends it; `start()` brings it back on the
/// same port. Whatever runs when the broker is released is killed with SIGKILL, so a failing test leaves no broker.
public final class MosquittoBroker {
    public static let executable = "/usr/sbin/mosquitto"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    public let port: UInt16
    /// The broker's configuration and log; removed with the broker.
    private let directory: URL
    private var processID: pid_t?

    public var url: String { "mqtt://127.0.0.1:\(port)" }
    public var log: String { (try? String(contentsOfFile: file("mosquitto.log"), encoding: .utf8)) ?? "" }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("geofence-mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        port = TCPProbe.freePort()
        let configuration = "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\n"
        try configuration.write(toFile: file("mosquitto.conf"), atomically: true, encoding: .utf8)
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    private func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Starts the broker and returns once it accepts connections; throws after `timeout`.
    public func start(timeout: Duration = .seconds(10)) async throws {
        precondition(processID == nil, "already running")
        let started = try Self.spawn(
            [Self.executable, "-c", file("mosquitto.conf")], output: file("mosquitto.log"))
        processID = started
        let deadline = ContinuousClock.now + timeout
        while !TCPProbe.accepts(port: port) {
            var status: Int32 = 0
            if waitpid(started, &status, WNOHANG) == started {
                processID = nil
                throw BrokerError(message: "mosquitto exited (status \(status)): \(log)")
            }
            if ContinuousClock.now > deadline {
                kill()
                throw BrokerError(message: "mosquitto did not listen on port \(port) within \(timeout): \(log)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// SIGTERM, up to 3 s for a clean exit, then SIGKILL; reaps the process. Idempotent.
    public func stop() {
        guard let processID else { return }
        _ = Glibc.kill(processID, SIGTERM)
        for _ in 0..<300 {
            var status: Int32 = 0
            if waitpid(processID, &status, WNOHANG) == processID {
                self.processID = nil
                return
            }
            usleep(10_000)
        }
        kill()
    }

    /// SIGSTOP: the broker keeps its connections but answers nothing, like a hung one.
    public func pause() {
        if let processID { _ = Glibc.kill(processID, SIGSTOP) }
    }

    /// SIGCONT after `pause()`.
    public func resume() {
        if let processID { _ = Glibc.kill(processID, SIGCONT) }
    }

    /// SIGKILL at once, and reap.
    public func kill() {
        guard let processID else { return }
        _ = Glibc.kill(processID, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(processID, &status, 0)
        self.processID = nil
    }

    private static func spawn(_ arguments: [String], output: String) throws -> pid_t {
        try ServerSpawn.start(arguments, output: output, appending: true)
    }
}

public struct BrokerError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
