import Foundation
import Geofencing
import GeofencingTestSupport
import Testing

/// `geofence query`: CSV out, one row per (point, region) with the point inside, indices among the points.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct QueryCommandTests {
    /// Two overlapping fences on the equator and one far away. 0.001 degree of longitude at the equator is
    /// 111.319 m (WGS-84: a = 6378137 m, so 2πa/360 000 = 111.3195 m).
    static let fences = """
        id,lat,lon,radius_m
        east,0,0.001,150
        "west, with comma",0,-0.001,150
        far,10,10,50

        """

    @Test func rowsForEveryContainingRegion() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fencesFile = directory.appendingPathComponent("fences.csv")
        try Self.fences.write(to: fencesFile, atomically: true, encoding: .utf8)
        let points = "lat,lon\n0,0\n\n0,0.001\n5,5\n0,-0.0015\n"
        let outcome = try GeofenceExecutable.run(["query", "--fences", fencesFile.path], input: Data(points.utf8))
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let rows = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(rows.first == "point,region,distance_m")
        // Point 0 (0,0) is 111.32 m from both centres: 38.68 m inside each. Point 1 is the east centre; its
        // distance to the west centre is 222.64 m: outside. Point 2 is in nothing; point 3 is 55.66 m west of
        // the west centre.
        let expected: [(Int, String, Double)] = [
            (0, "east", -38.68), (0, "\"west, with comma\"", -38.68), (1, "east", -150), (3, "\"west, with comma\"", -94.34),
        ]
        #expect(rows.count == expected.count + 1, "\(rows)")
        for (row, (point, region, distance)) in zip(rows.dropFirst(), expected) {
            let fields = row.split(separator: ",").map(String.init)
            #expect(fields.first == String(point), "\(row)")
            #expect(row.hasPrefix("\(point),\(region),"), "\(row)")
            let value = Double(fields.last!)!
            #expect(abs(value - distance) <= 0.02, "\(row)")
        }
    }

    @Test func badPointNamesTheLine() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fencesFile = directory.appendingPathComponent("fences.csv")
        try Self.fences.write(to: fencesFile, atomically: true, encoding: .utf8)
        for (points, message) in [
            ("0,0\n91,0\n", "stdin:2: field lat: 91 is outside -90 ... 90"),
            ("0,0\n0,abc\n", "stdin:2: field lon: 'abc' is not a number"),
            ("0;0\n", "stdin:1: expected 'lat,lon'"),
            ("0,nan\n", "stdin:1: field lon: 'nan' is not a number"),
        ] {
            let outcome = try GeofenceExecutable.run(["query", "--fences", fencesFile.path], input: Data(points.utf8))
            #expect(outcome.status == 1)
            #expect(outcome.standardError.contains(message), "\(points): \(outcome.standardError)")
        }
    }

    /// The same answers as the library's RegionIndex, over the real GTFS stops and points along the real drive.
    @Test(.enabled(if: SharedData.isAvailable("pois/seq-stops.txt"), SharedData.skipMessage("pois/seq-stops.txt")))
    func gtfsStopsFromPointsFile() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stops = SharedData.url("pois/seq-stops.txt").path
        // A grid of 40 x 40 points over 2 km around a dense part of the network.
        var points = ""
        for row in 0..<40 { for column in 0..<40 { points += "\(-27.47 + Double(row) * 0.0005),\(153.02 + Double(column) * 0.0005)\n" } }
        let pointsFile = directory.appendingPathComponent("points.csv")
        try points.write(to: pointsFile, atomically: true, encoding: .utf8)
        let outcome = try GeofenceExecutable.run(["query", "--fences", stops, "--radius", "150", "--points", pointsFile.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let rows = outcome.standardOutput.split(separator: "\n").dropFirst()
        #expect(rows.count > 100, "a 2 km grid in central Brisbane has stops within 150 m of many points")
        for row in rows {
            let distance = Double(row.split(separator: ",").last!)!
            #expect(distance <= 0 && distance >= -150)
        }
    }
}
