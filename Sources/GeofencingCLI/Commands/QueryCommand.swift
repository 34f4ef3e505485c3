import Foundation
import Geofencing
import GeofencingEvents
import GeofencingStore

/// `geofence query --fences FILE [--points FILE|-]`: batch classification of points, CSV out.
enum QueryCommand {
    static let command = GeofenceCLI.Command(
        name: "query", summary: "classify points against fences (CSV in, CSV out)",
        help: """
            Usage: geofence query --fences FILE [--radius M] [--datum D] [--points FILE|-]

            Reads points, one 'lat,lon' per line in degrees (an optional header line 'lat,lon'; blank lines are
            skipped and not counted), from FILE or standard input ('-', the default), and prints CSV with the
            header 'point,region,distance_m': one row for every point and region containing it, where point is the
            0-based index of the point among the input's points and distance_m the signed distance from the
            region's boundary in metres (negative inside; for a corridor, from the edge of its band). Classification
            is the core's: a circle exact to the WGS-84 geodesic outside a band of 2 cm + 1e-4 of the radius, a
            polygon exact on its coordinates to 1e-7 degree, a corridor's distance within 2 cm + 1e-7 of it.

              --fences FILE   GeoJSON (circles, polygons, corridors), CSV (id,lat,lon,radius_m) or
                              GTFS stops.txt
              --radius M      radius for GTFS stops, metres (default 100)
              --datum D       datum of the fences' coordinates: wgs84 (default), gcj02, tokyo
              --points FILE   the points ('-': standard input, the default)
            """,
        run: run)

    static func run(_ arguments: inout ArgumentList) throws {
        let fencesPath = try arguments.option("--fences")
        let radius = try arguments.number("--radius", in: 1...50_000) ?? 100
        let datum = try FenceLoading.datumOption(&arguments)
        let pointsPath = try arguments.option("--points") ?? "-"
        try arguments.finish()
        guard let fencesPath else { throw arguments.usageError("--fences FILE is required") }

        let index: RegionIndex
        do {
            index = try RegionIndex(regions: try FenceLoading.regions(from: fencesPath, defaultRadius: radius, datum: datum))
        } catch let error as RegionMonitorError {
            throw CLIError.failure("geofence query: \(fencesPath): \(error)")
        }
        let name = pointsPath == "-" ? "stdin" : pointsPath
        guard let input = pointsPath == "-" ? fdopen(dup(STDIN_FILENO), "r") : fopen(pointsPath, "r") else {
            throw CLIError.failure("geofence query: cannot open \(pointsPath): \(String(cString: strerror(errno)))")
        }
        defer { fclose(input) }

        var output = OutputBuffer()
        output.append("point,region,distance_m\n")
        var lineNumber = 0, pointNumber = 0
        while let line = readLine(from: input) {
            lineNumber += 1
            // A point is a few dozen bytes; a runaway line (a binary file, a gigabyte without a newline) is refused
            // before any work on it.
            guard line.utf8.count <= 256 else {
                throw CLIError.failure("geofence query: \(name):\(lineNumber): line of \(line.utf8.count) bytes; "
                                       + "expected 'lat,lon'")
            }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            if pointNumber == 0, text.replacingOccurrences(of: " ", with: "").lowercased() == "lat,lon" { continue }
            let coordinate = try parsePoint(text, file: name, line: lineNumber)
            for (region, distance) in index.regions(containing: coordinate) {
                output.append("\(pointNumber),\(CSVText.field(region.identifier)),\(JSONText.fixed(distance, decimals: 3))\n")
            }
            pointNumber += 1
        }
        if ferror(input) != 0 { throw CLIError.failure("geofence query: \(name): read error") }
        output.flush()
        Console.error("query: \(pointNumber) points, \(index.regions.count) fences")
    }

    /// "lat,lon" in degrees, each a plain decimal number in range.
    static func parsePoint(_ text: String, file: String, line: Int) throws -> Coordinate {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 2 else {
            throw CLIError.failure("\(file):\(line): expected 'lat,lon', got \(fields.count) fields: \(text.prefix(80))")
        }
        func degrees(_ field: String, _ name: String, _ limit: Double) throws -> Double {
            guard let value = Double(field), value.isFinite, field.allSatisfy({ "0123456789.-+eE".contains($0) }) else {
                throw CLIError.failure("\(file):\(line): field \(name): '\(field.prefix(40))' is not a number")
            }
            guard abs(value) <= limit else {
                throw CLIError.failure("\(file):\(line): field \(name): \(field) is outside -\(Int(limit)) ... \(Int(limit))")
            }
            return value
        }
        return Coordinate(latitude: try degrees(fields[0], "lat", 90), longitude: try degrees(fields[1], "lon", 180))
    }

    /// One line from a C stream without its line terminator, any length; nil at end of input.
    private static func readLine(from stream: UnsafeMutablePointer<FILE>) -> String? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let length = getline(&buffer, &capacity, stream)
        guard length >= 0, let buffer else { return nil }
        var text = String(cString: buffer)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}

/// Standard output in 64 KiB writes, for commands that print many rows.
struct OutputBuffer {
    private var pending = ""

    mutating func append(_ text: String) {
        pending += text
        if pending.utf8.count >= 65_536 { flush() }
    }

    mutating func flush() {
        guard !pending.isEmpty else { return }
        Console.out(pending)
        pending = ""
    }
}

/// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break.
enum CSVText {
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
