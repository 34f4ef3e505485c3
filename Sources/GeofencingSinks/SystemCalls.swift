import Glibc

/// The few system calls the sinks share: a complete write(2), an errno described in words, and the process-wide
/// SIGPIPE setting.
enum SystemCalls {
    /// How a complete write ended.
    enum WriteOutcome: Equatable {
        case written
        /// write(2) failed with this errno (EPIPE: the reader has gone).
        case failed(Int32)
        /// The descriptor did not take everything before the deadline.
        case timedOut
    }

    /// Writes all of `bytes` to `descriptor`: retries after EINTR and partial writes; on a non-blocking descriptor
    /// that is full (EAGAIN) waits with poll(2) until it takes more, or until `deadline` (nil: no limit).
    ///
    /// SIGPIPE must be ignored (`ignoreBrokenPipeSignal`) so that a reader that has gone is an EPIPE here rather
    /// than the end of the process.
    static func writeAll(
        _ descriptor: Int32, _ bytes: [UInt8], deadline: ContinuousClock.Instant? = nil
    ) -> WriteOutcome {
        ignoreBrokenPipeSignal()
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written >= 0 {
                offset += written
                continue
            }
            let code = errno
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                if let outcome = waitUntilWritable(descriptor, deadline: deadline) { return outcome }
            default:
                return .failed(code)
            }
        }
        return .written
    }

    /// Waits for POLLOUT; returns nil when the descriptor can take more (or reports an error the next write will
    /// name), `.timedOut` once `deadline` has passed.
    private static func waitUntilWritable(_ descriptor: Int32, deadline: ContinuousClock.Instant?) -> WriteOutcome? {
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let left = deadline - .now
                if left <= .zero { return .timedOut }
                milliseconds = Int32(clamping: Int(left.milliseconds.rounded(.up)))
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&request, 1, milliseconds)
            if ready > 0 { return nil }  // writable, or POLLERR/POLLHUP: the next write says which error
            if ready < 0 && errno != EINTR { return .failed(errno) }
        }
    }

    /// Sets SIGPIPE to SIG_IGN for the whole process, once: a write to a pipe whose reader has gone (`geofence run |
    /// head`, a command that exits without reading its input) then fails with EPIPE, which the sink reports,
    /// instead of killing the daemon. Children get the default disposition back (ExecSink resets it at spawn).
    static func ignoreBrokenPipeSignal() {
        _ = brokenPipeSignalIgnored
    }

    /// errno in words with its symbolic name where it is one a sink meets: "Broken pipe (EPIPE)", else
    /// "... (errno N)".
    static func describe(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        if let symbol = errnoNames[code] { return "\(text) (\(symbol))" }
        return "\(text) (errno \(code))"
    }

    private static let errnoNames: [Int32: String] = [
        EPIPE: "EPIPE", EBADF: "EBADF", EIO: "EIO", ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EFBIG: "EFBIG",
        EINVAL: "EINVAL", EAGAIN: "EAGAIN", ENOENT: "ENOENT", EACCES: "EACCES", EPERM: "EPERM",
        ENOEXEC: "ENOEXEC", ENOMEM: "ENOMEM", EMFILE: "EMFILE", ENFILE: "ENFILE", E2BIG: "E2BIG",
        ECONNREFUSED: "ECONNREFUSED", ETIMEDOUT: "ETIMEDOUT", EHOSTUNREACH: "EHOSTUNREACH",
        ECONNRESET: "ECONNRESET",
    ]
}

/// Initialised once, thread-safely, on first use (Swift globals are lazy and guarded by swift_once).
private let brokenPipeSignalIgnored: Void = {
    _ = signal(SIGPIPE, SIG_IGN)
}()

extension Duration {
    /// The duration in milliseconds, fractional.
    var milliseconds: Double {
        let parts = components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }
}
