import Glibc

/// One run of a command, from spawn to reaping, on the delivering thread: feeds its standard input, reads its
/// standard output and error into a `ChildOutputLog` while it runs (so it never blocks on a full pipe), and waits
/// for it to end; past the deadline, or when asked to, stops it (`ExecSink`'s SIGTERM, grace, SIGKILL).
///
/// One poll(2) loop on the three pipes, with a timeout growing from 1 ms to 20 ms while nothing happens, in which the
/// child's end is checked with waitid(WNOHANG | WNOWAIT): no SIGCHLD handler (process-wide) and no pidfd (Linux 5.3+)
/// needed. Owns the three descriptors and closes them.
struct ChildRun {
    enum Ending {
        /// The command ended by itself.
        case ended(ChildProcess.Termination)
        /// The command was stopped, and reaped.
        case stopped(StopReason)
    }

    enum StopReason {
        case timedOut
        case interrupted
        /// Writing its input failed with this errno (not EPIPE, which only means it did not read it).
        case inputFailed(Int32)
    }

    private let child: ChildProcess
    private var input: Int32
    private var output: Int32
    private var errors: Int32
    private let bytes: [UInt8]
    private var written = 0
    private var log: ChildOutputLog

    /// Reads of output after the command ended: what it wrote before it ended is in the pipe by then, and a process
    /// it left running that keeps writing must not hold the delivery (`maximumReadSize` bytes each).
    private static let readsAfterEnd = 16
    private static let maximumReadSize = 65536

    /// - Parameters: the child, the write end of its input pipe, the read ends of its output and error pipes (all
    ///   made non-blocking here), what to write to its input, and the log of its output.
    init(child: ChildProcess, input: Int32, output: Int32, errors: Int32, bytes: [UInt8], log: ChildOutputLog) {
        self.child = child
        self.input = input
        self.output = output
        self.errors = errors
        self.bytes = bytes
        self.log = log
        for descriptor in [input, output, errors] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        if bytes.isEmpty { closeInput() }
    }

    /// Runs the command to its end. `interrupted` is asked on every turn of the loop (at least every 20 ms).
    mutating func supervise(
        until deadline: ContinuousClock.Instant, grace: Double, interrupted: () -> Bool
    ) -> Ending {
        var pause: Int32 = 1
        while true {
            if child.hasEnded() {
                drainAfterEnd()
                return .ended(finish())
            }
            if interrupted() { return stop(.interrupted, grace: grace) }
            if ContinuousClock.now >= deadline { return stop(.timedOut, grace: grace) }
            let left = Int32(clamping: Int((deadline - .now).milliseconds.rounded(.up)))
            switch pollOnce(milliseconds: max(1, min(pause, left))) {
            case .activity: pause = 1
            case .idle: pause = min(pause * 2, 20)
            case .inputFailed(let code): return stop(.inputFailed(code), grace: grace)
            }
        }
    }

    private enum Turn {
        case activity, idle
        case inputFailed(Int32)
    }

    /// One poll and what it found ready: input written, output read into the log, ends of file closed.
    private mutating func pollOnce(milliseconds: Int32) -> Turn {
        var requests: [pollfd] = []
        if input >= 0 { requests.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
        if output >= 0 { requests.append(pollfd(fd: output, events: Int16(POLLIN), revents: 0)) }
        if errors >= 0 { requests.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
        if requests.isEmpty {
            // Input written, output closed (a command that closed its descriptors): only its end to wait for.
            var nothing = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&nothing, 0, milliseconds)
            return .idle
        }
        let ready = poll(&requests, nfds_t(requests.count), milliseconds)
        guard ready > 0 else { return .idle }
        for request in requests where request.revents != 0 {
            if request.fd == input {
                if let code = writeInput() { return .inputFailed(code) }
            } else {
                readOutput(request.fd)
            }
        }
        return .activity
    }

    /// Writes what the pipe takes of the input; closes it when all is written or the command closed its end.
    /// Returns an errno other than EPIPE and EAGAIN.
    private mutating func writeInput() -> Int32? {
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(input, buffer.baseAddress! + written, buffer.count - written)
            }
            if count >= 0 {
                written += count
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            case EPIPE:  // the command did not read its input; its exit status decides
                closeInput()
                return nil
            case let code: return code
            }
        }
        closeInput()
        return nil
    }

    /// One read of `descriptor` (output or errors) into the log; closes it at its end of file.
    /// Returns whether anything was read.
    @discardableResult
    private mutating func readOutput(_ descriptor: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: Self.maximumReadSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                log.take(buffer[..<count], from: descriptor == output ? .standardOutput : .standardError)
                return true
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return false }
            // End of file (everything holding the write end has closed it), or an error: nothing more to read.
            if descriptor == output { output = -1 } else { errors = -1 }
            Glibc.close(descriptor)
            return false
        }
    }

    /// Reads what the ended command left in its pipes, a bounded number of times.
    private mutating func drainAfterEnd() {
        for _ in 0..<Self.readsAfterEnd {
            var progress = false
            if output >= 0 && readOutput(output) { progress = true }
            if errors >= 0 && readOutput(errors) { progress = true }
            if !progress { return }
        }
    }

    /// SIGTERM to the group; the output is read meanwhile; SIGKILL to the group once the command has ended or
    /// `grace` seconds have passed; then reaps the command (whose zombie kept the group's number reserved).
    private mutating func stop(_ reason: StopReason, grace: Double) -> Ending {
        child.signalGroup(SIGTERM)
        let killTime = ContinuousClock.now + .seconds(grace)
        while !child.hasEnded() && ContinuousClock.now < killTime {
            let left = Int32(clamping: Int((killTime - .now).milliseconds.rounded(.up)))
            if case .inputFailed = pollOnce(milliseconds: max(1, min(20, left))) { closeInput() }
        }
        child.signalGroup(SIGKILL)
        drainAfterEnd()
        _ = finish()
        return .stopped(reason)
    }

    /// Closes what is open, logs the last partial lines, and reaps the command.
    private mutating func finish() -> ChildProcess.Termination {
        closeInput()
        for descriptor in [output, errors] where descriptor >= 0 { Glibc.close(descriptor) }
        output = -1
        errors = -1
        log.finish()
        return child.reap()
    }

    private mutating func closeInput() {
        if input >= 0 { Glibc.close(input) }
        input = -1
    }
}
