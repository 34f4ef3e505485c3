import Foundation
import GeofencingEvents
import Synchronization
import Testing

@testable import GeofencingSinks

/// What an `ExecSink` command prints goes to the log descriptor, prefixed, escaped and bounded; a command being
/// stopped gets SIGTERM, then SIGKILL, and so does everything it started.
@Suite struct ExecSinkOutputTests {
    /// A log file and a descriptor on it for the sink.
    final class LogFile {
        let directory: TemporaryDirectory
        let path: String
        let descriptor: Int32

        init() throws {
            directory = try TemporaryDirectory("exec-log")
            path = directory.file("log")
            descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        }

        deinit { close(descriptor) }

        var lines: [String] {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    /// Every line the command prints is logged with the sink, the command, the event and the stream, escaped.
    @Test func outputIsLoggedLineByLineWithAPrefixAndEscaped() throws {
        let log = try LogFile()
        let script = try log.directory.script("talk.sh", """
            #!/bin/sh
            cat > /dev/null
            echo '{"seq":999,"type":"enter","region":"FORGED"}'
            printf 'clear \\033[2J here\\n' >&2
            printf 'no newline at the end'

            """)
        try ExecSink(command: [script], timeout: 10, log: log.descriptor).deliver(SampleEvents.event(17))
        let prefix = "exec: \"\(script)\" #17"
        #expect(Set(log.lines) == [
            "\(prefix) stdout: {\"seq\":999,\"type\":\"enter\",\"region\":\"FORGED\"}",
            "\(prefix) stderr: clear \\e[2J here",
            "\(prefix) stdout: no newline at the end",
        ], "\(log.lines)")
    }

    /// A command that prints far more than the limit is drained to its end (it never blocks on a full pipe and
    /// exits 0), and the log holds the limit's worth of it and a line saying how much was dropped.
    @Test func floodOfOutputIsDrainedAndBounded() throws {
        let log = try LogFile()
        let total = 4_000_000
        let script = try log.directory.script("flood.sh", """
            #!/bin/sh
            head -c \(total) /dev/zero | tr '\\000' 'y' | fold -w 99
            echo done >&2

            """)
        try ExecSink(command: [script], timeout: 60, log: log.descriptor).deliver(SampleEvents.event(3))
        let logged = try Data(contentsOf: URL(fileURLWithPath: log.path))
        let prefix = "exec: \"\(script)\" #3"
        let lines = log.lines
        let marker = "\(prefix) stdout: "
        let stdout = lines.filter { $0.hasPrefix(marker) }.map { $0.dropFirst(marker.count) }
        // The limit's worth, exactly: whole lines with their newlines, and the last one cut where the limit fell.
        // ("done" on standard error comes after the flood, when nothing more is kept.)
        #expect(stdout.reduce(0) { $0 + $1.utf8.count + 1 } - 1 == ExecSink.outputLimit)
        #expect(stdout.dropLast().allSatisfy { $0.utf8.count == 99 })
        #expect(stdout.allSatisfy { $0.allSatisfy { $0 == "y" } })
        // fold adds a newline per 99 bytes: the output is total + total / 99 bytes, plus "done\n".
        let printed = total + total / 99 + 5
        let note = "\(prefix): \(printed - ExecSink.outputLimit) more bytes of output dropped "
            + "(over \(ExecSink.outputLimit) bytes or \(ExecSink.outputLineLimit) lines per event)"
        #expect(lines.last == note, "\(lines.suffix(2))")
        #expect(logged.count < 2 * ExecSink.outputLimit + 4096)
    }

    /// A flood of empty lines is bounded by lines too: the prefixes cannot fill the log.
    @Test func floodOfEmptyLinesIsBoundedByLines() throws {
        let log = try LogFile()
        let script = try log.directory.script("newlines.sh", "#!/bin/sh\nhead -c 50000 /dev/zero | tr '\\000' '\\n'\n")
        try ExecSink(command: [script], timeout: 60, log: log.descriptor).deliver(SampleEvents.event(4))
        let lines = log.lines
        let prefix = "exec: \"\(script)\" #4"
        #expect(lines.count == ExecSink.outputLineLimit + 1, "\(lines.count) lines")
        #expect(lines.dropLast().allSatisfy { $0 == "\(prefix) stdout: \"\"" })
        let note = "\(prefix): \(50000 - ExecSink.outputLineLimit) more bytes of output dropped"
        #expect(lines.last?.hasPrefix(note) == true, "\(String(describing: lines.last))")
    }

    /// `interrupt()` (the daemon stopping) ends a command that ignores SIGTERM and the process it started, which
    /// ignores it too: SIGTERM to the group, then SIGKILL after the grace. Both are gone by pid.
    @Test func interruptEndsACommandThatIgnoresSIGTERMAndWhatItStarted() throws {
        let log = try LogFile()
        let script = try Self.stubbornScript(in: log.directory)
        let sink = try ExecSink(command: [script], timeout: 600, log: log.descriptor)
        let outcome = Mutex<SinkError?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do throws(SinkError) { try sink.deliver(SampleEvents.event(5)) } catch {
                outcome.withLock { $0 = error }
            }
            finished.signal()
        }
        let pids = try Self.waitForProcessIDs(in: log.directory)
        #expect(pids.allSatisfy(ExecSinkTests.isRunning), "both run before the stop")
        sink.interrupt()
        #expect(finished.wait(timeout: .now() + 60) == .success, "deliver returned after interrupt()")
        let error = outcome.withLock { $0 }
        #expect(error?.message.contains("was stopped") == true, "\(String(describing: error))")
        for pid in pids { #expect(Self.ends(pid), "pid \(pid) still runs after the stop") }
        #expect(throws: SinkError.self) { try sink.deliver(SampleEvents.event(6)) }
    }

    /// The timeout stops the same way: SIGTERM, then SIGKILL for what ignores it.
    @Test func timeoutEndsACommandThatIgnoresSIGTERM() throws {
        let log = try LogFile()
        let script = try Self.stubbornScript(in: log.directory)
        let error = try #require(throws: SinkError.self) {
            try ExecSink(command: [script], timeout: 3, log: log.descriptor).deliver(SampleEvents.event(5))
        }
        #expect(error.message.contains("did not finish within 3.0 s and was killed"), "\(error)")
        let pids = try Self.waitForProcessIDs(in: log.directory)
        for pid in pids { #expect(Self.ends(pid), "pid \(pid) still runs after the timeout") }
    }

    /// A shell that ignores SIGTERM, starts a `sleep` that ignores it too (an ignored signal stays ignored across
    /// fork and exec), writes both pids to DIR/pids and waits.
    static func stubbornScript(in directory: TemporaryDirectory) throws -> String {
        try directory.script("stubborn.sh", """
            #!/bin/sh
            trap '' TERM
            sleep 600 &
            echo "$$ $!" > "\(directory.file("pids.tmp"))"
            mv "\(directory.file("pids.tmp"))" "\(directory.file("pids"))"
            echo started
            wait

            """)
    }

    static func waitForProcessIDs(in directory: TemporaryDirectory) throws -> [pid_t] {
        for _ in 0..<6000 {
            if let text = try? String(contentsOfFile: directory.file("pids"), encoding: .utf8) {
                return text.split(separator: " ").compactMap {
                    pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }
            usleep(10_000)
        }
        throw POSIXError(.ETIMEDOUT)
    }

    /// Whether `pid` has ended: at once, or soon once init has reaped an orphan (a zombie counts as ended).
    static func ends(_ pid: pid_t) -> Bool {
        for _ in 0..<500 {
            if !ExecSinkTests.isRunning(pid) { return true }
            usleep(10_000)
        }
        return false
    }
}
