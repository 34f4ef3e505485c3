import Foundation
import GeofencingEvents
import Testing

@testable import GeofencingSinks

/// ExecSink with real commands: scripts written to a temporary directory, `sleep`, `true`.
@Suite struct ExecSinkTests {
    /// Records what it was given: its environment's GEOFENCE_* values, PATH and its argument count (NUL-separated,
    /// so that any identifier survives) to DIR/env-SEQ, its standard input to DIR/stdin-SEQ. DIR is its first
    /// argument.
    static let recorder = """
        #!/bin/sh
        printf '%s\\0' "$GEOFENCE_SEQ" "$GEOFENCE_TYPE" "$GEOFENCE_REGION" "$GEOFENCE_TIME" "$GEOFENCE_CROSSED_AT" \
          "$GEOFENCE_LAT" "$GEOFENCE_LON" "$GEOFENCE_DISTANCE_M" "$GEOFENCE_STATE" "$GEOFENCE_INFERRED" "$GEOFENCE_INTERPOLATED" \
          "$PATH" "$#" > "$1/env-$GEOFENCE_SEQ"
        cat > "$1/stdin-$GEOFENCE_SEQ"

        """

    /// The recorded values of event `sequence`, in the recorder's order.
    static func recorded(
        _ directory: TemporaryDirectory, _ sequence: UInt64
    ) throws -> (values: [String], input: String) {
        let environment = try Data(contentsOf: URL(fileURLWithPath: directory.file("env-\(sequence)")))
        let values = environment.split(separator: 0, omittingEmptySubsequences: false).dropLast()
            .map { String(decoding: $0, as: UTF8.self) }
        let input = try String(contentsOfFile: directory.file("stdin-\(sequence)"), encoding: .utf8)
        return (values, input)
    }

    @Test func passesTheEventInItsEnvironmentAndOnStandardInput() throws {
        let directory = try TemporaryDirectory()
        let script = try directory.script("record.sh", Self.recorder)
        let sink = try ExecSink(command: [script, directory.path], timeout: 10)
        #expect(sink.name == "exec")
        var enter = SampleEvents.event(17)
        enter.crossedAt = SampleEvents.time - 1.5
        let lost = SampleEvents.event(18, kind: .state, region: "depot 3", distance: nil, state: .unknown,
                                      inferred: true, interpolated: true)
        try sink.deliver(enter)
        try sink.deliver(lost)

        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let first = try Self.recorded(directory, 17)
        #expect(first.values == [
            "17", "enter", "stop-1234", "2008-03-03T22:25:13Z", "2008-03-03T22:25:11.500Z", "-27.5712345",
            "153.0912345", "-3.2", "inside", "false", "false", path, "1",
        ])
        #expect(first.input == enter.jsonLine + "\n")
        let second = try Self.recorded(directory, 18)
        #expect(second.values == [
            "18", "state", "depot 3", "2008-03-03T22:25:14Z", "", "-27.5712345", "153.0912345", "", "unknown",
            "true", "true", path, "1",
        ])
        #expect(second.input == lost.jsonLine + "\n")
    }

    /// Identifiers written to run commands in a shell reach the command as plain text and run nothing; so do shell
    /// operators in a `--exec` string split by CommandWords.
    @Test func regionIdentifiersAndArgumentsAreNeverRunThroughAShell() throws {
        let directory = try TemporaryDirectory()
        let script = try directory.script("record.sh", Self.recorder)
        let marker = "/tmp/pwned-\(UUID().uuidString)"
        let regions = [
            "x; touch \(marker)-1", "$(touch \(marker)-2)", "`touch \(marker)-3`", "a' ; touch \(marker)-4 ; '",
            "x\" && touch \(marker)-5 && \"", "| touch \(marker)-6", "\n touch \(marker)-7",
        ]
        let command = try CommandWords.split("\(script) \(directory.path) ; touch \(marker)-8 && touch $(\(marker)-9)")
        #expect(command.count == 8)
        let sink = try ExecSink(command: command, timeout: 10)
        for (index, region) in regions.enumerated() {
            try sink.deliver(SampleEvents.event(UInt64(index + 1), region: region))
        }
        for (index, region) in regions.enumerated() {
            let recorded = try Self.recorded(directory, UInt64(index + 1))
            #expect(recorded.values[2] == region)
            #expect(recorded.values.last == "7", "the recorder's argument count")
        }
        for number in 1...9 {
            #expect(!FileManager.default.fileExists(atPath: "\(marker)-\(number)"), "\(marker)-\(number) was created")
        }
    }

    @Test func nonZeroExitStatusIsAnErrorNamingTheCommand() throws {
        let directory = try TemporaryDirectory()
        let script = try directory.script("fail.sh", "#!/bin/sh\ncat > /dev/null\nexit 3\n")
        let sink = try ExecSink(command: [script], name: "exec-test")
        let error = try #require(throws: SinkError.self) { try sink.deliver(SampleEvents.event(42)) }
        #expect(error.sink == "exec-test")
        #expect(error.message.contains("\"\(script)\" exited with status 3"), "\(error)")
        #expect(error.message.contains("#42"), "\(error)")
    }

    /// Death by a signal is a failure. The child gets SIGTERM's default action and an empty signal mask even though
    /// the test runner blocks SIGTERM (see ../shared/notes/gpsd-testing.md): without the reset, sh would survive
    /// its own `kill -TERM $$` and exit 0.
    @Test func deathBySignalIsAnError() throws {
        let directory = try TemporaryDirectory()
        let script = try directory.script("die.sh", "#!/bin/sh\nkill -TERM $$\nexit 0\n")
        let error = try #require(throws: SinkError.self) {
            try ExecSink(command: [script]).deliver(SampleEvents.event())
        }
        #expect(error.message.contains("killed by signal 15 (SIGTERM)"), "\(error)")
    }

    /// SIGPIPE is back to its default in the child, although the daemon ignores it: `yes | head -1` in a command
    /// ends as usual.
    @Test func childGetsTheDefaultSIGPIPE() throws {
        let directory = try TemporaryDirectory()
        let script = try directory.script("pipeline.sh", "#!/bin/sh\nyes | head -n 1 > /dev/null\n")
        let sink = try ExecSink(command: [script], timeout: 10)
        try sink.deliver(SampleEvents.event())
    }

    @Test func commandRunningPastTheTimeoutIsKilled() throws {
        let sink = try ExecSink(command: ["sleep", "5"], timeout: 0.5)
        // A `sleep 5` left to finish would exit 0 and deliver would succeed: the error proves it was killed.
        let error = try #require(throws: SinkError.self) { try sink.deliver(SampleEvents.event()) }
        #expect(error.message.contains("\"sleep\" did not finish within 0.5 s and was killed"), "\(error)")
    }

    /// The timeout kills what the command started, too (its process group).
    @Test func timeoutKillsWhatTheCommandStarted() throws {
        let directory = try TemporaryDirectory()
        let pidFile = directory.file("grandchild")
        let script = try directory.script("spawn.sh", "#!/bin/sh\nsleep 30 &\necho $! > \(pidFile)\nwait\n")
        // 2 s: time enough for sh to start and write the file on a loaded machine.
        #expect(throws: SinkError.self) { try ExecSink(command: [script], timeout: 2).deliver(SampleEvents.event()) }
        let grandchild = try #require(pid_t(String(contentsOfFile: pidFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        // Once killed, the orphaned sleep is reaped by init (or left a zombie for a moment): wait up to 5 s.
        var alive = true
        for _ in 0..<500 where alive {
            alive = Self.isRunning(grandchild)
            if alive { usleep(10_000) }
        }
        #expect(!alive, "sleep (pid \(grandchild)) still runs")
    }

    /// A command that exits without reading its input: the EPIPE (and the SIGPIPE, ignored) do not harm the daemon,
    /// and exit status 0 counts as delivered. The identifier is bigger than the pipe, so the write cannot finish,
    /// and bigger than an environment variable may be, so GEOFENCE_REGION has to be cut.
    @Test func commandThatIgnoresItsInputStillDelivers() throws {
        let sink = try ExecSink(command: ["true"], timeout: 10)
        try sink.deliver(SampleEvents.event(region: String(repeating: "r", count: 1_000_000)))
        try sink.deliver(SampleEvents.event(18))
    }

    /// A command that neither reads its input nor ends cannot hold the daemon on a full pipe past the timeout.
    @Test func fullPipeRespectsTheTimeout() throws {
        let sink = try ExecSink(command: ["sleep", "5"], timeout: 0.5)
        // Killed at the timeout while the write waited on the full pipe, not failed by sleep's own end (EPIPE).
        let error = try #require(throws: SinkError.self) {
            try sink.deliver(SampleEvents.event(region: String(repeating: "r", count: 1_000_000)))
        }
        #expect(error.message.contains("\"sleep\" did not finish within 0.5 s and was killed"), "\(error)")
    }

    /// A descriptor the daemon holds without close-on-exec (a library's socket, say) does not reach the command;
    /// standard input, output and error do.
    @Test func commandGetsOnlyTheStandardDescriptors() throws {
        let directory = try TemporaryDirectory()
        let leaked = open("/dev/null", O_RDONLY)  // deliberately without O_CLOEXEC
        try #require(leaked > 2)
        defer { close(leaked) }
        let script = try directory.script("fds.sh", """
            #!/bin/sh
            test -e /dev/fd/\(leaked) && exit 9
            test -e /dev/fd/0 && test -e /dev/fd/1 && test -e /dev/fd/2 || exit 8
            exit 0

            """)
        try ExecSink(command: [script], timeout: 10).deliver(SampleEvents.event())
    }

    @Test func unusableCommandsAreRejectedAtStart() throws {
        let missing = try #require(throws: SinkError.self) { try ExecSink(command: ["geofence-no-such-command"]) }
        #expect(missing.message.contains("\"geofence-no-such-command\": not found in PATH"), "\(missing)")
        let noFile = try #require(throws: SinkError.self) { try ExecSink(command: ["/nonexistent/notify"]) }
        #expect(noFile.message.contains("no executable file"), "\(noFile)")
        let directory = try TemporaryDirectory()
        let notExecutable = directory.file("plain.txt")
        try "text".write(toFile: notExecutable, atomically: true, encoding: .utf8)
        #expect(throws: SinkError.self) { try ExecSink(command: [notExecutable]) }
        #expect(throws: SinkError.self) { try ExecSink(command: []) }
        #expect(throws: SinkError.self) { try ExecSink(command: [""]) }
        #expect(throws: SinkError.self) { try ExecSink(command: ["true", "a\u{0}b"]) }
        let timeout = try #require(throws: SinkError.self) { try ExecSink(command: ["true"], timeout: 0) }
        #expect(timeout.message.contains("timeout 0.0"), "\(timeout)")
    }

    @Test func environmentVariablesOfAnEvent() {
        let variables = ExecSink.environment(for: SampleEvents.event(5, kind: .dwell, distance: -12.345))
        #expect(variables.map(\.name) == ExecSink.variableNames)
        #expect(variables.map(\.value) == [
            "5", "dwell", "stop-1234", "2008-03-03T22:25:01Z", "", "-27.5712345", "153.0912345", "-12.35",
            "inside", "false", "false", "", "",
        ])
        var overspeed = SampleEvents.event(6, kind: .overspeed, distance: -3)
        overspeed.maximumSpeed = 62.4 / 3.6
        overspeed.overLimitDuration = 7.26
        let speeding = ExecSink.environment(for: overspeed)
        #expect(speeding.map(\.name) == ExecSink.variableNames)
        #expect(speeding.suffix(2).map(\.value) == ["62.4", "7.3"])
        #expect(speeding[1].value == "overspeed")
    }

    /// Whether `processID` exists and is not a zombie (/proc/PID/stat's state field).
    static func isRunning(_ processID: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }
}
