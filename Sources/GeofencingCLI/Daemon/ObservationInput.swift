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

    var description: String {
        switch self {
        case .gpsd(let host, let port): "gpsd at \(host):\(port)"
        case .nmea(let path): path == "-" ? "NMEA on standard input" : "NMEA from \(path)"
        }
    }
}
