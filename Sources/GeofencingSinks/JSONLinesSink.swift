import Geofencing
import GeofencingEvents
import Glibc

/// Writes each event as one line of JSON (`EventRecord.jsonLine` and "\n") to a file descriptor: standard output
/// (`geofence run --format jsonl`), a pipe, or a file.
///
/// Lines are buffered: `deliver` only appends to the buffer, and `flush` writes everything buffered in complete
/// write(2) calls (retried after EINTR and partial writes), so lines from one sink never interleave with other
/// output and a pipe reader sees a fix's events together, at once. Nothing is fsync'ed: durability lives in the
/// store, which keeps each event until its sink has flushed it. The descriptor stays the caller's: `close()` does
/// not close it.
public final class JSONLinesSink: EventSink, Sendable {
    public let name: String
    public let fileDescriptor: Int32
    private let output: LineBuffer

    public init(fileDescriptor: Int32, name: String = "jsonl") {
        self.fileDescriptor = fileDescriptor
        self.name = name
        self.output = LineBuffer(descriptor: fileDescriptor, sink: name)
        SystemCalls.ignoreBrokenPipeSignal()
    }

    public func deliver(_ event: EventRecord) throws(SinkError) {
        output.append(event.jsonLine)
    }

    public func flush() throws(SinkError) {
        try output.flush()
    }

    public func close() {}
}

/// Lines for a descriptor, kept in memory until `flush` writes them all: the buffer of the descriptor sinks.
///
/// Memory: the lines appended since the last flush, which the callers bound (the daemon flushes after each batch of
/// at most `DeliveryWorker.batchSize` events, `geofence replay` after each fix's events, both of which are held in
/// memory anyway).
final class LineBuffer: Sendable {
    private let descriptor: Int32
    private let sink: String
    private let pending = Locked<[UInt8]>([])

    init(descriptor: Int32, sink: String) {
        self.descriptor = descriptor
        self.sink = sink
    }

    /// Adds `line` and a newline.
    func append(_ line: String) {
        pending.withLock {
            $0.append(contentsOf: line.utf8)
            $0.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes what is buffered. On a failure the buffered lines are dropped (the store still has their events,
    /// which are delivered again) and the error names the descriptor.
    func flush() throws(SinkError) {
        let bytes = pending.withLock { buffered in
            defer { buffered.removeAll(keepingCapacity: buffered.count <= 1 << 20) }
            return buffered
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
}
