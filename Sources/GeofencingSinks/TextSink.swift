import GeofencingEvents

/// Writes each event as one line for people (`geofence run --format text`):
///
///     2008-03-03T22:25:13Z  #17 enter  stop-1234  -3.2 m  (-27.5712345, 153.0912345)
///     2008-03-03T22:31:40Z  #18 exit  stop-1234  4.05 m  (-27.5715, 153.0921) inferred
///     2008-03-03T22:40:02Z  #19 state unknown  depot  no distance  (-27.58, 153.1)
///
/// GNSS time, sequence number, kind (for a `state` event with the state it found), region identifier, signed distance
/// to the boundary (negative inside), position, then the flags "inferred" and "interpolated" when set, and for the
/// overspeed kinds "max 62.4 km/h for 7 s" (the highest speed and the time over the limit). The identifier
/// is printed safely (`PrintableText.escaped`): it cannot move the cursor, clear the screen or fake a second line.
/// Writing is as in `JSONLinesSink` (lines buffered until `flush`, complete writes, no fsync; the descriptor stays
/// the caller's).
public final class TextSink: EventSink, Sendable {
    public let name: String
    public let fileDescriptor: Int32
    private let output: LineBuffer

    public init(fileDescriptor: Int32, name: String = "text") {
        self.fileDescriptor = fileDescriptor
        self.name = name
        self.output = LineBuffer(descriptor: fileDescriptor, sink: name)
        SystemCalls.ignoreBrokenPipeSignal()
    }

    public func deliver(_ event: EventRecord) throws(SinkError) {
        output.append(Self.line(for: event))
    }

    public func flush() throws(SinkError) {
        try output.flush()
    }

    public func close() {}

    /// The text line for `event`, without a newline (for other text outputs, e.g. `geofence replay`).
    public static func line(for event: EventRecord) -> String {
        let kind = event.kind == .state ? "state \(event.state.rawValue)" : event.kind.rawValue
        let distance = event.distance.map { "\(JSONText.fixed($0, decimals: 2)) m" } ?? "no distance"
        let latitude = JSONText.fixed(event.latitude, decimals: 7)
        let longitude = JSONText.fixed(event.longitude, decimals: 7)
        var line = "\(ISO8601Time.format(event.time))  #\(event.sequence) \(kind)  \(printable(event.region))"
        line += "  \(distance)  (\(latitude), \(longitude))"
        if event.inferred { line += " inferred" }
        if event.interpolated { line += " interpolated" }
        if let speed = event.maximumSpeed { line += "  max \(JSONText.fixed(speed * 3.6, decimals: 1)) km/h" }
        if let over = event.overLimitDuration { line += " for \(JSONText.fixed(over, decimals: 1)) s" }
        return line
    }

    /// `PrintableText.escaped(text)`: the identifier as the text line prints it.
    public static func printable(_ text: String) -> String { PrintableText.escaped(text) }
}
