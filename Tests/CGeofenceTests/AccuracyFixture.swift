// Reading Fixtures/accuracy_vectors.csv, written by scripts/gen_accuracy_vectors.py from geographiclib.
import CGeofence
import Foundation

/// One fixture row: a fence, a probe, and Karney's WGS-84 geodesic distance between the (already e7-rounded) points.
struct AccuracyVector: CustomStringConvertible {
    let tag: String
    let centre: gf_point
    let radiusMM: UInt32
    let probe: gf_point
    let geodesicMM: Double
    let line: Int

    var description: String {
        "line \(line) [\(tag)] centre \(centre.text) r \(radiusMM) mm, probe \(probe.text), geodesic \(geodesicMM) mm"
    }

    static let fileName = "accuracy_vectors.csv"
    static let header = "case,centre_lat_e7,centre_lon_e7,radius_mm,probe_lat_e7,probe_lon_e7,geodesic_mm"

    /// Every row of the fixture; throws naming the line when one does not parse, so a damaged fixture cannot pass
    /// as an empty or short one.
    static func loadFixture() throws -> [AccuracyVector] {
        let text = try String(contentsOf: fixtureURL(fileName), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first.map(String.init) == header else {
            throw CoreCallFailed(description: "\(fileName): unexpected header \(lines.first ?? "")")
        }
        return try lines.dropFirst().enumerated().map { index, line in
            try parse(line, lineNumber: index + 2)
        }
    }

    private static func parse(_ line: Substring, lineNumber: Int) throws -> AccuracyVector {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 7,
            let centreLat = Int32(fields[1]), let centreLon = Int32(fields[2]),
            let radius = UInt32(fields[3]),
            let probeLat = Int32(fields[4]), let probeLon = Int32(fields[5]),
            let geodesic = Double(fields[6])
        else {
            throw CoreCallFailed(description: "\(fileName) line \(lineNumber) does not parse: \(line)")
        }
        return AccuracyVector(
            tag: String(fields[0]), centre: gf_point(lat: centreLat, lon: centreLon), radiusMM: radius,
            probe: gf_point(lat: probeLat, lon: probeLon), geodesicMM: geodesic, line: lineNumber)
    }
}
