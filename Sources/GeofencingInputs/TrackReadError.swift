/// Why a track (NMEA, GPX, gpsd JSON) or one of its lines could not be read: names the input, the place in it and
/// what is wrong, e.g. `drive.nmea:17: field 4 (latitude): "12x7.5" is not a number`.
public struct TrackReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file path, or a name such as "stdin".
    public let source: String
    /// 1-based line number, when the problem is on one line.
    public let line: Int?
    /// What is wrong.
    public let message: String

    public init(source: String, line: Int? = nil, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(source):\(line): \(message)" }
        return "\(source): \(message)"
    }
}
