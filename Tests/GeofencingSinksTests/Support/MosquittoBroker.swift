import Foundation
import GeofencingTestSupport

/// A mosquitto broker (Debian package mosquitto) on 127.0.0.1 for one test: its own configuration (mosquitto 2.x
/// wants both an explicit listener and `allow_anonymous true`), no persistence, its log in a temporary directory.
///
/// Started with posix_spawn, an empty signal mask and default SIGTERM (a child of `swift test` would otherwise
/// inherit a blocked SIGTERM; see ../shared/notes/gpsd-testing.md). `stop()` ends it; `start()` brings it back on the
/// same port. Whatever runs when the broker is released is killed with SIGKILL, so a failing test leaves no broker.
final class MosquittoBroker {
    static let executable = "/usr/sbin/mosquitto"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let port: UInt16
    private let directory: TemporaryDirectory
    private var processID: pid_t?

    var url: String { "mqtt://127.0.0.1:\(port)" }
    var log: String { (try? String(contentsOfFile: directory.file("mosquitto.log"), encoding: .utf8)) ?? "" }

    init() throws {
        directory = try TemporaryDirectory("mosquitto")
        port = TCPProbe.freePort()
        let configuration = "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\n"
        try configuration.write(toFile: directory.file("mosquitto.conf"), atomically: true, encoding: .utf8)
    }

    deinit {
        kill()
    }

    /// Starts the broker and returns once it accepts connections; throws after `timeout`.
    func start(timeout: Duration = .seconds(10)) async throws {
        precondition(processID == nil, "already running")
        let started = try Self.spawn(
            [Self.executable, "-c", directory.file("mosquitto.conf")], output: directory.file("mosquitto.log"))
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
    func stop() {
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
    func pause() {
        if let processID { _ = Glibc.kill(processID, SIGSTOP) }
    }

    /// SIGCONT after `pause()`.
    func resume() {
        if let processID { _ = Glibc.kill(processID, SIGCONT) }
    }

    /// SIGKILL at once, and reap.
    func kill() {
        guard let processID else { return }
        _ = Glibc.kill(processID, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(processID, &status, 0)
        self.processID = nil
    }

    private static func spawn(_ arguments: [String], output: String) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var processID: pid_t = 0
        let result = posix_spawn(&processID, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw BrokerError(message: "posix_spawn \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return processID
    }
}

struct BrokerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
