import Foundation

/// A mosquitto broker (Debian package mosquitto) on 127.0.0.1 for one test: its own configuration (mosquitto 2.x
/// wants both an explicit listener and `allow_anonymous true`), no persistence, its log in a temporary directory.
///
/// With a `SecureListener` it has a second listener on `securePort` (TLS, users from a password file, an ACL);
/// the first stays plain and anonymous, with no ACL, for the test's subscriber (per-listener settings).
///
/// Started with posix_spawn, an empty signal mask and default SIGTERM (a child of `swift test` would otherwise
/// inherit a blocked SIGTERM; see ../shared/notes/gpsd-testing.md). `stop()` ends it; `start()` brings it back on the
/// same port. Whatever runs when the broker is released is killed with SIGKILL, so a failing test leaves no broker.
public final class MosquittoBroker {
    public static let executable = "/usr/sbin/mosquitto"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    public let port: UInt16
    /// The port of the `SecureListener`.
    public let securePort: UInt16
    /// The broker's configuration and log; removed with the broker.
    private let directory: URL
    private var processID: pid_t?

    public var url: String { "mqtt://127.0.0.1:\(port)" }
    public var log: String { (try? String(contentsOfFile: file("mosquitto.log"), encoding: .utf8)) ?? "" }

    /// The second listener: TLS when `certificate` is given, users from `passwordFile` (anonymous clients refused),
    /// topics from `aclFile`.
    public struct SecureListener {
        public var certificate: String?
        public var key: String?
        /// The CA clients' certificates must chain to.
        public var ca: String?
        /// Mutual TLS: a client without a certificate signed by `ca` is refused.
        public var requireClientCertificate = false
        public var passwordFile: String?
        public var aclFile: String?

        public init(
            certificate: String? = nil, key: String? = nil, ca: String? = nil, requireClientCertificate: Bool = false,
            passwordFile: String? = nil, aclFile: String? = nil
        ) {
            self.certificate = certificate
            self.key = key
            self.ca = ca
            self.requireClientCertificate = requireClientCertificate
            self.passwordFile = passwordFile
            self.aclFile = aclFile
        }
    }

    public init(secure: SecureListener? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("geofence-mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        port = TCPProbe.freePort()
        securePort = secure == nil ? 0 : TCPProbe.freePort()
        try configure(secure: secure)
    }

    /// Writes the configuration, which the next `start()` reads: the plain listener, and `secure` if given.
    public func configure(secure: SecureListener?) throws {
        var lines = ["persistence false", "log_dest stderr", "per_listener_settings true"]
        // As root, mosquitto would switch to the user "mosquitto", which cannot read the test's 0600 key files.
        if geteuid() == 0 { lines.append("user root") }
        lines += ["listener \(port) 127.0.0.1", "allow_anonymous true"]
        if let secure {
            precondition(securePort != 0, "made without a secure listener")
            lines += ["listener \(securePort) 127.0.0.1", "allow_anonymous \(secure.passwordFile == nil)"]
            if let certificate = secure.certificate, let key = secure.key {
                lines += ["certfile \(certificate)", "keyfile \(key)"]
                if let ca = secure.ca { lines.append("cafile \(ca)") }
                lines.append("require_certificate \(secure.requireClientCertificate)")
            }
            if let passwordFile = secure.passwordFile { lines.append("password_file \(passwordFile)") }
            if let aclFile = secure.aclFile { lines.append("acl_file \(aclFile)") }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: file("mosquitto.conf"), atomically: true, encoding: .utf8)
    }

    /// Writes a mosquitto password file at `path` with one user (mosquitto_passwd -b: the password hashed).
    public static func writePasswordFile(_ path: String, user: String, password: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        let (status, output) = try ProgramRun.run("/usr/bin/mosquitto_passwd", ["-c", "-b", path, user, password])
        guard status == 0 else { throw BrokerError(message: "mosquitto_passwd exited \(status): \(output)") }
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
        while !TCPProbe.accepts(port: port) || (securePort != 0 && !TCPProbe.accepts(port: securePort)) {
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

    /// SIGHUP: the broker reads its password file and ACL again, and its listeners' certificate files (mosquitto
    /// 2.x); returns once it has logged "Reloading config.", which it does in the same step, before any client's
    /// next packet. Its listeners and connections stay.
    public func reload(timeout: Duration = .seconds(10)) async throws {
        guard let processID else { throw BrokerError(message: "mosquitto is not running") }
        func reloads() -> Int { log.components(separatedBy: "Reloading config.").count }
        let before = reloads()
        _ = Glibc.kill(processID, SIGHUP)
        let deadline = ContinuousClock.now + timeout
        while reloads() == before {
            if ContinuousClock.now > deadline { throw BrokerError(message: "mosquitto did not reload: \(log)") }
            try await Task.sleep(for: .milliseconds(10))
        }
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
