import Geofencing
import GeofencingGPSD
import GeofencingInputs

/// Where `geofence run` gets its fixes: gpsd (the default: localhost:2947), or NMEA straight from a serial device,
/// a FIFO or standard input for units without gpsd.
enum ObservationInput: Sendable, CustomStringConvertible {
    case gpsd(host: String, port: UInt16)
    case nmea(path: String)

    /// Parses `--gpsd HOST[:PORT]` ("[::1]:2947" for IPv6) and `--nmea PATH|-`; gpsd on localhost when neither.
    init(gpsd: String?, nmea: String?, arguments: ArgumentList) throws(CLIError) {
        switch (gpsd, nmea) {
        case (.some, .some): throw arguments.usageError("--gpsd and --nmea exclude each other")
        case (nil, .some(let path)): self = .nmea(path: path)
        case (nil, nil): self = .gpsd(host: "localhost", port: 2947)
        case (.some(let address), nil):
            var host = address, portText: Substring?
            if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
                host = String(address[address.index(after: address.startIndex)..<close])
                let rest = address[address.index(after: close)...]
                if rest.hasPrefix(":") { portText = rest.dropFirst() } else if !rest.isEmpty { host = "" }
            } else if address.filter({ $0 == ":" }).count == 1, let colon = address.firstIndex(of: ":") {
                host = String(address[..<colon])
                portText = address[address.index(after: colon)...]
            }
            guard !host.isEmpty else { throw arguments.usageError("--gpsd \(address): expected HOST[:PORT]") }
            guard let port = portText.map({ UInt16($0) }) ?? 2947, port > 0 else {
                throw arguments.usageError("--gpsd \(address): the port must be 1 ... 65535")
            }
            self = .gpsd(host: host, port: port)
        }
    }

    /// Names the input in the lines logged about it: "gpsd localhost:2947", "/dev/ttyUSB0", "-".
    var sourceName: String {
        switch self {
        case .gpsd(let host, let port): "gpsd \(host):\(port)"
        case .nmea(let path): path
        }
    }

    /// Starts reading the input. gpsd's source comes with the warnings its dropped reports call for, to check after
    /// each of its observations; an NMEA source has none (a bad line is skipped, not reported).
    ///
    /// - Throws: `CLIError` when gpsd cannot be used at all (a build without the GPSD trait).
    func start() throws(CLIError) -> (source: any ObservationSource, reportWarnings: GPSDReportWarnings?) {
        switch self {
        case .nmea(let path):
            return (NMEAStream(from: path == "-" ? .standardInput : .device(path: path, baudRate: 9600)), nil)
        case .gpsd(let host, let port):
            let gps = GPSDSource(host: host, port: port)
            do { try gps.start() } catch { throw CLIError.failure("geofence run: gpsd: \(error)") }
            return (gps, GPSDReportWarnings(gps, source: sourceName))
        }
    }

    var description: String {
        switch self {
        case .gpsd(let host, let port): "gpsd at \(host):\(port)"
        case .nmea(let path): path == "-" ? "NMEA on standard input" : "NMEA from \(path)"
        }
    }
}
