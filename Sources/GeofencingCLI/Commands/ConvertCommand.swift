import Foundation
import Geofencing

/// `geofence convert --from DATUM --to DATUM [LAT,LON ...]`: coordinates from one datum to another.
enum ConvertCommand {
    static let command = GeofenceCLI.Command(
        name: "convert", summary: "convert coordinates between WGS-84, GCJ-02 and the Tokyo datum",
        help: """
            Usage: geofence convert --from wgs84|gcj02|tokyo --to wgs84|gcj02|tokyo [LAT,LON ...]

            Converts each point 'LAT,LON' (degrees) given as an argument, or else each line of standard input (blank
            lines skipped), and prints 'LAT,LON' with 7 decimals (1.1 cm), one line per point, in order.

              wgs84   GNSS positions, GeoJSON
              gcj02   maps published in China: the published formula from WGS-84 (identity outside the box
                      72.004-137.8347 E, 0.8293-55.8271 N), its inverse by iteration to 0.2 mm
              tokyo   Japanese data before 2002: GSI's 3-parameter shift (-146.414, 507.337, 680.507 m;
                      about 1-2 m off the official grid on the main islands, up to 9 m)

            A bad point stops the command with exit status 2, naming the argument or line.
            """,
        run: run)

    static func run(_ arguments: inout ArgumentList) throws {
        let from = try datum(&arguments, "--from")
        let to = try datum(&arguments, "--to")
        var points: [String] = []
        while let point = arguments.optionalPositional() { points.append(point) }
        try arguments.finish()

        var output = OutputBuffer()
        if !points.isEmpty {
            for (index, text) in points.enumerated() {
                let point = try parse(text, place: "argument \(index + 1)", in: arguments)
                output.append(line(from.convert(point, to: to)))
            }
        } else {
            var lineNumber = 0
            while let text = readLine(strippingNewline: true) {
                lineNumber += 1
                guard text.utf8.count <= 256 else {
                    throw arguments.usageError("stdin:\(lineNumber): line of \(text.utf8.count) bytes; expected LAT,LON")
                }
                if text.allSatisfy(\.isWhitespace) { continue }
                let point = try parse(text, place: "stdin:\(lineNumber)", in: arguments)
                output.append(line(from.convert(point, to: to)))
            }
        }
        output.flush()
    }

    private static func datum(_ arguments: inout ArgumentList, _ name: String) throws(CLIError) -> Datum {
        guard let text = try arguments.option(name) else {
            throw arguments.usageError("\(name) is required: \(Datum.acceptedNames)")
        }
        guard let datum = Datum(name: text) else {
            throw arguments.usageError("\(name) \(text): expected \(Datum.acceptedNames)")
        }
        return datum
    }

    /// "LAT,LON" in degrees (blanks around the fields allowed), each a plain decimal number in range; a usage
    /// error naming `place` and the field otherwise.
    static func parse(_ text: String, place: String, in arguments: ArgumentList) throws(CLIError) -> Coordinate {
        let shown = "'\(text.prefix(80))'"
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 2 else {
            throw arguments.usageError("\(place): \(shown): expected LAT,LON, got \(fields.count) field"
                + (fields.count == 1 ? "" : "s"))
        }
        func degrees(_ field: String, _ name: String, _ limit: Double) throws(CLIError) -> Double {
            guard field.allSatisfy({ "0123456789.-+eE".contains($0) }), let value = Double(field), value.isFinite else {
                throw arguments.usageError("\(place): \(shown): field \(name): '\(field.prefix(40))' is not a number")
            }
            guard abs(value) <= limit else {
                throw arguments.usageError("\(place): \(shown): field \(name): \(field) is outside "
                    + "-\(Int(limit)) ... \(Int(limit))")
            }
            return value
        }
        return Coordinate(latitude: try degrees(fields[0], "lat", 90), longitude: try degrees(fields[1], "lon", 180))
    }

    /// "LAT,LON" with 7 decimals (1e-7° is 1.1 cm, the core's own step), "-0.0000000" written as "0.0000000".
    static func line(_ coordinate: Coordinate) -> String {
        func fixed(_ value: Double) -> String {
            let text = String(format: "%.7f", value)
            return text == "-0.0000000" ? "0.0000000" : text
        }
        return fixed(coordinate.latitude) + "," + fixed(coordinate.longitude) + "\n"
    }
}
