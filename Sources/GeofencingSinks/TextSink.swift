import GeofencingStore

/// Writes each event as one line for people (`geofence run --format text`):
///
///     2008-03-03T22:25:13Z  #17 enter  stop-1234  -3.2 m  (-27.5712345, 153.0912345)
///     2008-03-03T22:31:40Z  #18 exit  stop-1234  4.05 m  (-27.5715, 153.0921) inferred
///     2008-03-03T22:40:02Z  #19 state unknown  depot  no distance  (-27.58, 153.1)
///
/// GNSS time, sequence number, kind (for a `state` event with the state it found), region identifier, signed distance
/// to the boundary (negative inside), position, then the flags "inferred" and "interpolated" when set. The identifier
/// is printed safely (`TextSink.printable`): it cannot move the cursor, clear the screen or fake a second line.
/// Writing is as in `JSONLinesSink` (complete writes, fsync on a regular file; the descriptor stays the caller's).
public final class TextSink: EventSink, Sendable {
    public let name: String
    public let fileDescriptor: Int32
    private let syncsEachLine: Bool

    public init(fileDescriptor: Int32, name: String = "text") {
        self.fileDescriptor = fileDescriptor
        self.name = name
        self.syncsEachLine = LineWriter.isRegularFile(fileDescriptor)
        SystemCalls.ignoreBrokenPipeSignal()
    }

    public func deliver(_ event: EventRecord) throws(SinkError) {
        try LineWriter.write(Self.line(for: event), to: fileDescriptor, sync: syncsEachLine, sink: name)
    }

    public func close() {}

    /// The text line for `event`, without a newline (for other text outputs, e.g. `geofence replay`).
    public static func line(for event: EventRecord) -> String {
        let kind = event.kind == .state ? "state \(event.state.rawValue)" : event.kind.rawValue
        let distance = event.distance.map { "\(JSONText.fixed($0, decimals: 2)) m" } ?? "no distance"
        let latitude = JSONText.fixed(event.latitude, decimals: 7)
        let longitude = JSONText.fixed(event.longitude, decimals: 7)
        var line = "\(JSONText.iso8601(event.time))  #\(event.sequence) \(kind)  \(printable(event.region))"
        line += "  \(distance)  (\(latitude), \(longitude))"
        if event.inferred { line += " inferred" }
        if event.interpolated { line += " interpolated" }
        return line
    }

    /// `text` with everything a terminal would act on escaped: C0 and C1 control characters and DEL (`\n`, `\r`,
    /// `\t`, `\e` for ESC, else `\u{9b}`), the line and paragraph separators, and the bidirectional overrides and
    /// isolates that can make a line read differently from what it holds; a backslash is doubled so that the
    /// escapes are unambiguous. An empty identifier prints as `""`.
    public static func printable(_ text: String) -> String {
        if text.isEmpty { return "\"\"" }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x1B: out += "\\e"
            case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
