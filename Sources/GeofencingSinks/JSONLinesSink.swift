import Glibc
import GeofencingStore

/// Writes each event as one line of JSON (`EventRecord.jsonLine` and "\n") to a file descriptor: standard output
/// (`geofence run --format jsonl`), a pipe, or a file.
///
/// Each line goes out in one complete write(2) (retried after EINTR and partial writes), so lines from one sink never
/// interleave. On a regular file each line is also fsync'ed before `deliver` returns: "handed over for good" means
/// on the disk there. Pipes and terminals have nothing to sync. The descriptor stays the caller's: `close()` does
/// not close it.
public final class JSONLinesSink: EventSink, Sendable {
    public let name: String
    public let fileDescriptor: Int32
    /// fsync after each line: the descriptor was a regular file when the sink was made.
    private let syncsEachLine: Bool

    public init(fileDescriptor: Int32, name: String = "jsonl") {
        self.fileDescriptor = fileDescriptor
        self.name = name
        self.syncsEachLine = LineWriter.isRegularFile(fileDescriptor)
        SystemCalls.ignoreBrokenPipeSignal()
    }

    public func deliver(_ event: EventRecord) throws(SinkError) {
        try LineWriter.write(event.jsonLine, to: fileDescriptor, sync: syncsEachLine, sink: name)
    }

    public func close() {}
}

/// One line of text to a descriptor, as the descriptor sinks write it.
enum LineWriter {
    static func write(_ line: String, to descriptor: Int32, sync: Bool, sink: String) throws(SinkError) {
        let bytes = Array((line + "\n").utf8)
        switch SystemCalls.writeAll(descriptor, bytes) {
        case .written: break
        case .failed(let code):
            throw SinkError(
                sink: sink, message: "write to descriptor \(descriptor) failed: \(SystemCalls.describe(code))")
        case .timedOut:
            throw SinkError(sink: sink, message: "write to descriptor \(descriptor) timed out")
        }
        // EINVAL: the descriptor does not support syncing after all (it was a regular file at init only).
        if sync && fsync(descriptor) != 0 && errno != EINVAL {
            throw SinkError(
                sink: sink, message: "fsync of descriptor \(descriptor) failed: \(SystemCalls.describe(errno))")
        }
    }

    static func isRegularFile(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}
