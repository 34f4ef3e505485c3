import Geofencing
import GeofencingEvents
import Glibc

/// Writes each event as one line of JSON (`EventRecord.jsonLine` and "\n") to a file descriptor: standard output
/// (`geofence run --format jsonl`), a pipe, or a file.
///
/// Lines are buffered: `deliver` only appends to the buffer, and `flush` writes everything buffered in complete
/// write(2) calls (retried after EINTR and partial writes), so lines from one sink never interleave with other
/// output and a pipe reader sees a fix's events together, at once. Nothing is fsync'ed: durability lives in the
/// store, which keeps each event until its sink has flushed it. A file a killed writer left ending in part of a
/// line gets a newline before the first line (`LineBuffer`). The descriptor stays the caller's: `close()` does not
/// close it.
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
