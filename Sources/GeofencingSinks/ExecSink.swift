import GeofencingEvents
import Glibc
import Synchronization

/// Runs a command for each event: never through a shell, so no region identifier can inject a command.
///
/// The command (`command[0]`, looked up in PATH like execvp) gets the event twice:
/// - in its environment, which is the daemon's (as it was when the sink was made) plus the `GEOFENCE_*` variables
///   of `environment(for:)`;
/// - as its standard input: the JSON line (`EventRecord.jsonLine`) and "\n", then end of file.
///
/// Its standard output and error are pipes that the sink reads while the command runs and copies to the daemon's
/// log (`log`, standard error by default), never to the event stream: line by line, each line prefixed with the sink,
/// the command and the event (`exec: "notify" #17 stdout: ...`), control characters escaped, at most `outputLimit`
/// bytes and `outputLineLimit` lines per event (the rest is read and dropped, so the command never blocks on a full
/// pipe, and a closing line says how much was dropped).
///
/// The event counts as delivered when the command exits with status 0. A non-zero status, death by a signal, or
/// running longer than `timeout` is a `SinkError` naming the command, and the daemon retries the event later:
/// commands must cope with seeing an event twice (`GEOFENCE_SEQ` tells repeats apart).
///
/// Stopping a command (past its timeout, or on `interrupt()` when the daemon stops): SIGTERM to its process group
/// (the command and whatever it started), then, once the command has ended or `terminationGrace` has passed,
/// SIGKILL to the group; so nothing it started in its group outlives the stop. What a command leaves running
/// after it exits by itself is not touched.
///
/// A command that exits without reading its input is fine: the EPIPE the daemon then gets writing to it is ignored,
/// and only the exit status counts.
public final class ExecSink: EventSink, Sendable {
    public let name: String
    /// argv of the command; `command[0]` is looked up in PATH.
    public let command: [String]
    /// Seconds the command may run for one event before it is stopped.
    public let timeout: Double
    /// The descriptor the command's output is logged to (it stays the caller's).
    public let log: Int32
    /// The daemon's environment without the variables the sink sets itself.
    private let baseEnvironment: [String]
    /// Set by `interrupt()`: the command running is stopped, no other is started.
    private let interrupted = Atomic<Bool>(false)

    /// The most bytes of a command's standard output and error, together, logged for one event.
    public static let outputLimit = 8192

    /// The most lines of a command's standard output and error, together, logged for one event.
    public static let outputLineLimit = 100

    /// Seconds a command being stopped has between SIGTERM and SIGKILL.
    public static let terminationGrace = 2.0

    /// - Parameters:
    ///   - command: argv (command[0] is looked up in PATH like execvp; never through a shell).
    ///   - timeout: seconds after which the child is stopped and the delivery fails; more than 0.
    ///   - name: the sink's name, the key of its delivery cursor.
    ///   - log: where the command's output goes (prefixed lines); standard error by default.
    /// - Throws: `SinkError` when `command` is empty, has an empty program name or a NUL character, when
    ///   `command[0]` is not an executable file (in PATH, when it has no "/"), or when `timeout` is not a positive
    ///   number.
    public init(command: [String], timeout: Double = 30, name: String = "exec", log: Int32 = 2) throws(SinkError) {
        self.name = name
        self.command = command
        self.timeout = timeout
        self.log = log
        guard let program = command.first, !program.isEmpty else {
            throw SinkError(sink: name, message: "the command is empty")
        }
        if let argument = command.first(where: { $0.utf8.contains(0) }) {
            throw SinkError(sink: name, message: "argument \(JSONText.quoted(argument)) contains a NUL character")
        }
        guard timeout.isFinite && timeout > 0 else {
            throw SinkError(sink: name, message: "timeout \(timeout) is not a positive number of seconds")
        }
        let environment = Self.currentEnvironment()
        let variableNames = Set(Self.variableNames)
        baseEnvironment = environment.filter { entry in
            !variableNames.contains(String(entry.prefix { $0 != "=" }))
        }
        let path = environment.first { $0.hasPrefix("PATH=") }.map { String($0.dropFirst(5)) }
        if let problem = Self.problemFinding(program, path: path) {
            throw SinkError(sink: name, message: "cannot run \(JSONText.quoted(program)): \(problem)")
        }
        SystemCalls.ignoreBrokenPipeSignal()
    }

    public func deliver(_ event: EventRecord) throws(SinkError) {
        let program = JSONText.quoted(command[0])
        guard !interrupted.load(ordering: .relaxed) else {
            throw SinkError(sink: name, message: "not running \(program): stopping")
        }
        let deadline = ContinuousClock.now + .seconds(timeout)
        let pipes = try makePipes(3, for: program)
        let (input, output, errors) = (pipes[0], pipes[1], pipes[2])
        let environment = baseEnvironment + Self.environment(for: event).map { "\($0.name)=\($0.value)" }
        func spawn() -> Result<ChildProcess, ChildProcess.SpawnFailure> {
            ChildProcess.spawn(
                command, environment: environment, standardInput: input.read, standardOutput: output.write,
                standardError: errors.write)
        }
        var spawned = spawn()
        // ETXTBSY: the program file is open for writing, as while a script is being replaced, or for the moment a
        // process started elsewhere holds a copy of a writer's descriptor before its exec. Try again briefly.
        for pause in [1, 5, 20, 50, 100] where spawned.failedBecauseTextFileBusy {
            usleep(UInt32(pause * 1000))
            spawned = spawn()
        }
        closeAll([input.read, output.write, errors.write])
        let child: ChildProcess
        switch spawned {
        case .success(let started): child = started
        case .failure(let failure):
            closeAll([input.write, output.read, errors.read])
            throw SinkError(sink: name, message: "cannot run \(program): \(SystemCalls.describe(failure.code))")
        }

        let logDescriptor = log
        var run = ChildRun(
            child: child, input: input.write, output: output.read, errors: errors.read,
            bytes: Array((event.jsonLine + "\n").utf8),
            log: ChildOutputLog(
                prefix: "\(name): \(program) #\(event.sequence)", limit: Self.outputLimit,
                lineLimit: Self.outputLineLimit
            ) { line in
                _ = SystemCalls.writeAll(logDescriptor, Array((line + "\n").utf8))
            })
        let ending = run.supervise(until: deadline, grace: Self.terminationGrace) {
            self.interrupted.load(ordering: .relaxed)
        }
        switch ending {
        case .ended(.exited(0)):
            return
        case .ended(.exited(let status)):
            throw SinkError(sink: name, message: "\(program) exited with status \(status) (event #\(event.sequence))")
        case .ended(.signalled(let signal)):
            throw SinkError(
                sink: name,
                message: "\(program) was killed by signal \(signal) (\(Self.signalName(signal))) "
                    + "(event #\(event.sequence))")
        case .ended(.unknown(let code)):
            throw SinkError(sink: name, message: "cannot learn how \(program) ended: \(SystemCalls.describe(code))")
        case .stopped(.timedOut):
            throw SinkError(sink: name, message: "\(program) did not finish within \(timeout) s and was killed")
        case .stopped(.interrupted):
            throw SinkError(sink: name, message: "\(program) was stopped: the daemon is stopping")
        case .stopped(.inputFailed(let code)):
            throw SinkError(
                sink: name, message: "writing the event to \(program) failed: \(SystemCalls.describe(code))")
        }
    }

    /// Stops the command running (if any) and refuses to start another: SIGTERM, then SIGKILL after
    /// `terminationGrace`. Any thread may call it; the delivery in progress then ends with an error.
    public func interrupt() {
        interrupted.store(true, ordering: .relaxed)
    }

    /// `count` pipes whose ends are all close-on-exec, at once (Swift does not see pipe2): a child must hold only
    /// the ends it gets as descriptors 0, 1 and 2, or it would never see the end of its input and the daemon never
    /// the end of its output. A process spawned by another thread in the microseconds between pipe and fcntl would
    /// inherit the ends; the daemon spawns from its delivery thread only.
    private func makePipes(_ count: Int, for program: String) throws(SinkError) -> [(read: Int32, write: Int32)] {
        var pipes: [(read: Int32, write: Int32)] = []
        for _ in 0..<count {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                let code = errno
                closeAll(pipes.flatMap { [$0.read, $0.write] })
                throw SinkError(sink: name, message: "cannot make a pipe for \(program): \(SystemCalls.describe(code))")
            }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            pipes.append((ends[0], ends[1]))
        }
        return pipes
    }

    private func closeAll(_ descriptors: [Int32]) {
        for descriptor in descriptors { Glibc.close(descriptor) }
    }

    /// Nothing to release: each command has ended (or been killed) before `deliver` returns.
    public func close() {}

    /// The names of the variables `environment(for:)` sets, in its order.
    public static let variableNames = [
        "GEOFENCE_SEQ", "GEOFENCE_TYPE", "GEOFENCE_REGION", "GEOFENCE_TIME", "GEOFENCE_CROSSED_AT", "GEOFENCE_LAT",
        "GEOFENCE_LON", "GEOFENCE_DISTANCE_M", "GEOFENCE_STATE", "GEOFENCE_INFERRED", "GEOFENCE_INTERPOLATED",
        "GEOFENCE_MAX_SPEED_KMH", "GEOFENCE_OVER_LIMIT_S",
    ]

    /// The event as environment variables, with the values of the JSON line: GEOFENCE_SEQ ("17"), GEOFENCE_TYPE
    /// ("enter"), GEOFENCE_REGION (the identifier as it is, but an environment cannot hold a NUL character or a
    /// variable over 128 KiB: the value ends at the first NUL and is cut to `regionVariableLimit` bytes, on a
    /// character boundary; the JSON on standard input always has all of it), GEOFENCE_TIME
    /// ("2008-03-03T22:25:13Z"), GEOFENCE_CROSSED_AT (the estimated boundary crossing, "2008-03-03T22:25:11.417Z";
    /// empty when the event has none: every kind but enter and exit), GEOFENCE_LAT and GEOFENCE_LON (degrees, 7
    /// decimals), GEOFENCE_DISTANCE_M (metres, negative inside; empty when the event has no distance),
    /// GEOFENCE_STATE ("inside", "outside", "unknown"), GEOFENCE_INFERRED and GEOFENCE_INTERPOLATED ("true" or
    /// "false"), GEOFENCE_MAX_SPEED_KMH and GEOFENCE_OVER_LIMIT_S (the overspeed kinds' max_speed_kmh and
    /// over_limit_s; empty for the other kinds).
    public static func environment(for event: EventRecord) -> [(name: String, value: String)] {
        let values = [
            String(event.sequence), event.kind.rawValue, regionVariable(event.region), ISO8601Time.format(event.time),
            event.crossedAt.map(ISO8601Time.format) ?? "",
            JSONText.fixed(event.latitude, decimals: 7), JSONText.fixed(event.longitude, decimals: 7),
            event.distance.map { JSONText.fixed($0, decimals: 2) } ?? "", event.state.rawValue,
            String(event.inferred), String(event.interpolated),
            event.maximumSpeed.map { JSONText.fixed($0 * 3.6, decimals: 1) } ?? "",
            event.overLimitDuration.map { JSONText.fixed($0, decimals: 1) } ?? "",
        ]
        return Array(zip(variableNames, values)).map { (name: $0.0, value: $0.1) }
    }

    /// The most bytes of an identifier GEOFENCE_REGION carries: below Linux's 128 KiB for one "NAME=value" string
    /// (MAX_ARG_STRLEN), over which the exec would fail with E2BIG for every try of the event.
    public static let regionVariableLimit = 65536

    private static func regionVariable(_ region: String) -> String {
        let value = region.utf8.firstIndex(of: 0).map { String(region.utf8[..<$0])! } ?? region
        guard value.utf8.count > regionVariableLimit else { return value }
        var cut = ""
        for character in value {
            if cut.utf8.count + character.utf8.count > regionVariableLimit { break }
            cut.append(character)
        }
        return cut
    }

    private static func currentEnvironment() -> [String] {
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            entries.append(String(cString: entry))
            pointer += 1
        }
        return entries
    }

    /// Why `program` cannot be started, or nil if it can: checked once here so that a misspelt `--exec` fails at
    /// start-up rather than at the first event. Searches PATH as execvp does (its default when PATH is unset:
    /// /bin:/usr/bin) unless the name has a "/".
    private static func problemFinding(_ program: String, path: String?) -> String? {
        if program.contains("/") {
            return isExecutableFile(program) ? nil : "no executable file at that path"
        }
        let directories = (path ?? "/bin:/usr/bin").split(separator: ":", omittingEmptySubsequences: false)
        for directory in directories {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + program
            if isExecutableFile(candidate) { return nil }
        }
        return "not found in PATH (\(path ?? "unset"))"
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    private static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGKILL: "SIGKILL"
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGSEGV: "SIGSEGV"
        case SIGABRT: "SIGABRT"
        case SIGPIPE: "SIGPIPE"
        case SIGHUP: "SIGHUP"
        default: String(cString: strsignal(signal))
        }
    }
}

extension Result<ChildProcess, ChildProcess.SpawnFailure> {
    fileprivate var failedBecauseTextFileBusy: Bool {
        if case .failure(let failure) = self { return failure.code == ETXTBSY }
        return false
    }
}
