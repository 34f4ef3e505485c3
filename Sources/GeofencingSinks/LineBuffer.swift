import Geofencing
import Glibc

/// Lines for a descriptor, kept in memory until `flush` writes them all: the buffer of the descriptor sinks.
///
/// A kill can cut a write short: the kernel ends a write(2) to a regular file at a page boundary once SIGKILL is
/// pending, so a daemon killed while it writes a batch leaves the file ending in part of a line. The next process
/// appending to that file (`geofence run >> events.jsonl`) would glue its first line to that part, and the event
/// in it, which it delivers again because the cut one never counted, would be lost to every reader. So the first
/// flush starts on a new line when the descriptor appends to a regular file that ends without a newline: the cut
/// part becomes a line of its own, which a reader cannot parse and skips, and every whole line stays whole.
///
/// Memory: the lines appended since the last flush, which the callers bound (the daemon flushes after each batch of
/// at most `DeliveryWorker.batchSize` events, `geofence replay` after each fix's events, both of which are held in
/// memory anyway).
final class LineBuffer: Sendable {
    private let descriptor: Int32
    private let sink: String
    private let pending = Locked<Pending>(Pending())

    private struct Pending {
        var bytes: [UInt8] = []
        /// Whether a flush has looked at how the file ends (done once, before the first write).
        var startChecked = false
    }

    init(descriptor: Int32, sink: String) {
        self.descriptor = descriptor
        self.sink = sink
    }

    /// Adds `line` and a newline.
    func append(_ line: String) {
        pending.withLock {
            $0.bytes.append(contentsOf: line.utf8)
            $0.bytes.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes what is buffered. On a failure the buffered lines are dropped (the store still has their events,
    /// which are delivered again) and the error names the descriptor.
    func flush() throws(SinkError) {
        let descriptor = self.descriptor
        let bytes = pending.withLock { buffered in
            defer { buffered.bytes.removeAll(keepingCapacity: buffered.bytes.count <= 1 << 20) }
            guard !buffered.bytes.isEmpty else { return buffered.bytes }
            if !buffered.startChecked {
                buffered.startChecked = true
                if Self.appendsAfterPartialLine(descriptor) { return [UInt8(ascii: "\n")] + buffered.bytes }
            }
            return buffered.bytes
        }
        guard !bytes.isEmpty else { return }
        switch SystemCalls.writeAll(descriptor, bytes) {
        case .written: break
        case .failed(let code):
            throw SinkError(
                sink: sink, message: "write to descriptor \(descriptor) failed: \(SystemCalls.describe(code))")
        case .timedOut:
            throw SinkError(sink: sink, message: "write to descriptor \(descriptor) timed out")
        }
    }

    /// Whether the next write to `descriptor` lands after the last byte of a regular file (opened to append, or
    /// positioned at its end) whose last byte is not a newline. Pipes, terminals, sockets, empty files and writes
    /// into the middle of a file: false. A write-only descriptor is read through /proc/self/fd; where the last byte
    /// cannot be read, false (nothing is added that might not be needed).
    static func appendsAfterPartialLine(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else {
            return false
        }
        let appending = fcntl(descriptor, F_GETFL) & O_APPEND != 0
        guard appending || lseek(descriptor, 0, SEEK_CUR) == status.st_size else { return false }
        var last: UInt8 = 0
        if pread(descriptor, &last, 1, status.st_size - 1) == 1 { return last != UInt8(ascii: "\n") }
        let reader = open("/proc/self/fd/\(descriptor)", O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { return false }
        defer { close(reader) }
        return pread(reader, &last, 1, status.st_size - 1) == 1 && last != UInt8(ascii: "\n")
    }
}
