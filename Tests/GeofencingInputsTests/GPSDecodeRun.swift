// Test support: runs gpsd's own NMEA decoder, `gpsdecode -j`, on a log and keeps its TPV reports.
import Foundation

/// One TPV report of `gpsdecode -j`: gpsd's merged state after some sentence of the log.
struct GPSDecodeTPV: Decodable, Equatable {
    var mode: Int
    var time: String?
    var lat: Double?
    var lon: Double?
    /// gpsd's horizontal error estimate (m): HDOP × 19 m or × 4.75 m, printed to the millimetre.
    var eph: Double?
    /// Course over ground (degrees true, printed to 1e-4°) and speed (m/s, to the millimetre per second).
    var track: Double?
    var speed: Double?
    /// The course as magnetic: `track` plus gpsd's magnetic variation at the fix (1e-4°).
    var magtrack: Double?
}

enum GPSDecodeRun {
    static let executable = "/usr/bin/gpsdecode"

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// All TPV reports, in order, of `gpsdecode -j < path`.
    static func tpvReports(decoding path: String) throws -> [GPSDecodeTPV] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-j"]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()   // before waiting: the pipe must not fill up
        process.waitUntilExit()
        let decoder = JSONDecoder()
        var reports: [GPSDecodeTPV] = []
        for line in data.split(separator: UInt8(ascii: "\n")) where line.starts(with: Array(#"{"class":"TPV""#.utf8)) {
            reports.append(try decoder.decode(GPSDecodeTPV.self, from: Data(line)))
        }
        return reports
    }
}
