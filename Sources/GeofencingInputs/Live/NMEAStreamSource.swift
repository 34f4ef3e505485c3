/// Where a live NMEA stream comes from.
public enum NMEAStreamSource: Sendable, Hashable, CustomStringConvertible {
    /// The process's standard input, e.g. `socat` or `gpspipe -r` piped into the program. The stream reads a
    /// duplicate of it, so standard input stays open.
    case standardInput
    /// A serial device such as /dev/ttyUSB0. When it is a terminal it is switched to raw mode at `baudRate`
    /// (4800 is the NMEA 0183 standard; most USB and u-blox receivers send at 9600). A regular file or FIFO path
    /// is read as it is.
    case device(path: String, baudRate: Int)
    /// A descriptor the caller opened (a pipe, a socket). The stream reads a duplicate; the caller closes its own
    /// whenever it likes.
    case fileDescriptor(Int32)

    /// A serial device at 4800 baud, the NMEA 0183 standard speed.
    public static func device(path: String) -> NMEAStreamSource {
        .device(path: path, baudRate: 4800)
    }

    public var description: String {
        switch self {
        case .standardInput: "stdin"
        case .device(let path, _): path
        case .fileDescriptor(let descriptor): "file descriptor \(descriptor)"
        }
    }
}
