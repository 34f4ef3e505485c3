// Polygons and corridors through the real executable: a GeoJSON fence file with a LineString corridor and a Polygon
// replayed against the Brisbane car log (enter and exit where an independent computation says), the same events
// from `run`, the store's `fences list`, `fences export --format csv` refused, `query` and `map`.
import Foundation
import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import Testing

@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct ShapeFenceCommandTests {
    /// Metres east and north of `origin` on a local flat plane (WGS-84 radii of curvature at the origin's
    /// latitude): within millimetres of the geodesic over the 1.5 km of the drive.
    struct Plane {
        let origin: Coordinate
        let perDegreeNorth: Double, perDegreeEast: Double

        init(origin: Coordinate) {
            self.origin = origin
            let a = 6_378_137.0, e2 = 0.006_694_379_990_141_317, phi = origin.latitude * .pi / 180
            let w = (1 - e2 * sin(phi) * sin(phi)).squareRoot()
            perDegreeNorth = a * (1 - e2) / (w * w * w) * .pi / 180
            perDegreeEast = a / w * cos(phi) * .pi / 180
        }

        func point(_ c: Coordinate) -> (x: Double, y: Double) {
            ((c.longitude - origin.longitude) * perDegreeEast, (c.latitude - origin.latitude) * perDegreeNorth)
        }

        /// Distance from `c` to the polyline `path`.
        func distance(_ c: Coordinate, toPath path: [Coordinate]) -> Double {
            let p = point(c)
            return zip(path, path.dropFirst()).map { a, b in
                let a = point(a), b = point(b), dx = b.x - a.x, dy = b.y - a.y, length = dx * dx + dy * dy
                let t = length > 0 ? min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / length, 0), 1) : 0
                return hypot(a.x + t * dx - p.x, a.y + t * dy - p.y)
            }.min() ?? .infinity
        }

        /// Signed distance from `c` to the boundary of a latitude-longitude box (negative inside): the box's edges
        /// are lines of constant latitude or longitude, exactly as a GeoJSON polygon's straight edges are.
        func signedDistance(_ c: Coordinate, toBox south: Double, _ west: Double, _ north: Double, _ east: Double) -> Double {
            let dy = max(south - c.latitude, 0, c.latitude - north) * perDegreeNorth
            let dx = max(west - c.longitude, 0, c.longitude - east) * perDegreeEast
            if dx > 0 || dy > 0 { return hypot(dx, dy) }
            return -min((c.latitude - south) * perDegreeNorth, (north - c.latitude) * perDegreeNorth,
                        (c.longitude - west) * perDegreeEast, (east - c.longitude) * perDegreeEast)
        }
    }

    /// The fixes at which the monitor must change state, from each fix's signed distance to the boundary and the
    /// monitor's rule (a state changes when a fix is past the boundary by more than max(hysteresis, the fix's
    /// 95 % accuracy)); `slack` metres either side of a threshold count as either (the core's distances and this
    /// test's differ by centimetres). Returns, per transition, the fix indices at which the event may come.
    static func expectedTransitions(
        distances: [Double], accuracies: [Double?], hysteresis: Double, slack: Double = 1
    ) -> [(kind: String, fixes: ClosedRange<Int>)] {
        var transitions: [(String, ClosedRange<Int>)] = []
        var inside = distances[0] < 0
        var earliest: Int?
        for (index, distance) in distances.enumerated() {
            let threshold = max(hysteresis, accuracies[index] ?? 0)
            let past = inside ? distance - threshold : -distance - threshold  // > 0: the state changes here
            if past > -slack && earliest == nil { earliest = index }
            if past > slack || (past > 0 && earliest == index) {
                transitions.append((inside ? "exit" : "enter", (earliest ?? index)...index))
                inside.toggle()
                earliest = nil
            } else if past <= -slack {
                earliest = nil
            }
        }
        return transitions
    }

    @Test(.enabled(if: SharedData.isAvailable("nmea/nmealog.txt"), SharedData.skipMessage("nmea/nmealog.txt")))
    func corridorAndPolygonAlongTheBrisbaneDrive() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = SharedData.url("nmea/nmealog.txt").path
        let fixes = try TrackFile.read(path: log).observations.compactMap(\.fix)
        try #require(fixes.count > 150, "\(fixes.count) fixes")

        // The corridor: the drive's own positions from fix 40 to fix 90, every 5th, 30 m either side; the polygon:
        // the latitude-longitude box of fixes 60 ... 80 widened by 0.0002 degree (20 m).
        let path = stride(from: 40, through: 90, by: 5).map { fixes[$0].coordinate }
        let stretch = fixes[60...80].map(\.coordinate)
        let south = stretch.map(\.latitude).min()! - 0.0002, north = stretch.map(\.latitude).max()! + 0.0002
        let west = stretch.map(\.longitude).min()! - 0.0002, east = stretch.map(\.longitude).max()! + 0.0002
        let position = { (c: Coordinate) in "[\(c.longitude),\(c.latitude)]" }
        let geojson = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"id":"route","half_width_m":30},
             "geometry":{"type":"LineString","coordinates":[\(path.map(position).joined(separator: ","))]}},
            {"type":"Feature","properties":{"id":"stretch"},"geometry":{"type":"Polygon","coordinates":[[
             [\(west),\(south)],[\(east),\(south)],[\(east),\(north)],[\(west),\(north)],[\(west),\(south)]]]}}
            ]}
            """
        let fences = directory.appendingPathComponent("shapes.geojson")
        try geojson.write(to: fences, atomically: true, encoding: .utf8)

        let replay = try GeofenceExecutable.run(
            ["replay", log, "--fences", fences.path, "--format", "jsonl", "--determinations", "all"])
        try #require(replay.status == 0, "\(replay.standardError)")
        let events = try EventLine.parse(replay.standardOutput)

        // Independent expectations: distances from this test's own geometry, thresholds from the monitor's rule
        // (hysteresis: a quarter of the corridor's half-width, 7.5 m; a polygon's 10 m).
        let plane = Plane(origin: fixes[0].coordinate)
        let formatter = ISO8601DateFormatter()
        let times = fixes.map { formatter.string(from: $0.timestamp) }
        for (region, hysteresis, distance) in [
            ("route", 7.5, { (c: Coordinate) in plane.distance(c, toPath: path) - 30 }),
            ("stretch", 10.0, { (c: Coordinate) in plane.signedDistance(c, toBox: south, west, north, east) }),
        ] {
            let expected = Self.expectedTransitions(
                distances: fixes.map { distance($0.coordinate) }, accuracies: fixes.map(\.horizontalAccuracy),
                hysteresis: hysteresis)
            let seen = events.filter { $0.region == region }
            #expect(seen.first?.type == "state" && seen.first?.state == "outside", "\(region): \(seen)")
            let transitions = seen.dropFirst()
            #expect(transitions.map(\.type) == ["enter", "exit"], "\(region): \(transitions.map(\.type))")
            #expect(expected.map(\.kind) == ["enter", "exit"], "\(region): expected \(expected)")
            for (event, wanted) in zip(transitions, expected) {
                let index = try #require(times.firstIndex(of: event.time), "\(region) \(event.type) at \(event.time)")
                #expect(wanted.fixes.contains(index),
                        "\(region) \(event.type) at fix \(index) (\(event.time)); expected at fix \(wanted.fixes)")
                let independent = distance(fixes[index].coordinate)
                let reported = try #require(event.distance)
                #expect(abs(reported - independent) < 0.5, "\(region) \(event.type): \(reported) m vs \(independent) m")
                #expect(event.type == "enter" ? reported < 0 : reported > 0)
                print("\(region) \(event.type) at fix \(index) \(event.time), \(reported) m from the boundary")
            }
        }

        // `run` with the same file and the log as NMEA input reports the same events (but the determinations of
        // regions found outside, which it stores without an event), and stores the shapes.
        let store = directory.appendingPathComponent("unit.db").path
        let run = try GeofenceExecutable.run(
            ["run", "--store", store, "--nmea", log, "--fences", fences.path, "--format", "jsonl"])
        try #require(run.status == 0, "\(run.standardError)")
        let ran = try EventLine.parse(run.standardOutput)
        #expect(ran.map { [$0.type, $0.region, $0.time] }
                == events.filter { $0.type != "state" || $0.state == "inside" }.map { [$0.type, $0.region, $0.time] })

        let list = try GeofenceExecutable.run(["fences", "list", "--store", store])
        #expect(list.status == 0, "\(list.standardError)")
        let rows = list.standardOutput.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.first == ["id", "shape", "lat", "lon", "radius_m", "half_width_m", "vertices", "state", "speed_limit_kmh", "schedule"])
        let route = try #require(rows.first { $0.first == "route" })
        #expect(route[1] == "corridor" && route[4] == "" && route[5] == "30" && route[6] == "11" && route[7] == "outside",
                "\(route)")
        let box = try #require(rows.first { $0.first == "stretch" })
        #expect(box[1] == "polygon" && box[4] == "" && box[5] == "" && box[6] == "4" && box[7] == "outside", "\(box)")
        // lat,lon: the centre of the box.
        #expect(abs(Double(box[2])! - (south + north) / 2) < 1e-7 && abs(Double(box[3])! - (west + east) / 2) < 1e-7,
                "\(box)")

        let csv = try GeofenceExecutable.run(["fences", "export", "--store", store, "--format", "csv"])
        #expect(csv.status == 1)
        #expect(csv.standardOutput.isEmpty, "nothing half-written: \(csv.standardOutput)")
        #expect(csv.standardError.contains("geofence fences export: store \(store): cannot write region \"route\" as CSV")
                && csv.standardError.contains("--format geojson"), "\(csv.standardError)")
        let exported = try GeofenceExecutable.run(["fences", "export", "--store", store])
        #expect(exported.status == 0 && exported.standardOutput.contains("\"LineString\"")
                && exported.standardOutput.contains("\"Polygon\""), "\(exported.standardOutput.prefix(300))")

        let map = directory.appendingPathComponent("map.html")
        let mapped = try GeofenceExecutable.run(["replay", log, "--fences", fences.path, "--map", map.path])
        #expect(mapped.status == 0, "\(mapped.standardError)")
        let html = try String(contentsOf: map, encoding: .utf8)
        #expect(html.contains("\"type\":\"corridor\"") && html.contains("\"type\":\"polygon\""))
        #expect(html.contains("2 fences (2 polygons or corridors, "))
    }

    /// Near the equator (0.001 degree of latitude is 110.574 m, of longitude 111.319 m): a square with a square
    /// hole, a multi-polygon of two squares, and a corridor along the equator.
    static let equatorShapes = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"square with hole"},"geometry":{"type":"Polygon","coordinates":[
          [[-0.002,-0.002],[0.002,-0.002],[0.002,0.002],[-0.002,0.002],[-0.002,-0.002]],
          [[-0.0005,-0.0005],[-0.0005,0.0005],[0.0005,0.0005],[0.0005,-0.0005],[-0.0005,-0.0005]]]}},
        {"type":"Feature","properties":{"id":"two parts"},"geometry":{"type":"MultiPolygon","coordinates":[
          [[[0.01,0.01],[0.011,0.01],[0.011,0.011],[0.01,0.011],[0.01,0.01]]],
          [[[0.02,0.01],[0.021,0.01],[0.021,0.011],[0.02,0.011],[0.02,0.01]]]]}},
        {"type":"Feature","properties":{"id":"lane","half_width_m":50},"geometry":{"type":"LineString",
          "coordinates":[[0.003,0],[0.006,0]]}}
        ]}
        """

    @Test func queryClassifiesPolygonsHolesPartsAndCorridors() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("equator.geojson")
        try Self.equatorShapes.write(to: fences, atomically: true, encoding: .utf8)
        let points = """
            lat,lon
            0,0
            0.001,0
            0.0105,0.0205
            0.0105,0.015
            0.0002,0.004
            0,0.0065
            0.001,0.004

            """
        let outcome = try GeofenceExecutable.run(["query", "--fences", fences.path], input: Data(points.utf8))
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let rows = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(rows.first == "point,region,distance_m")
        // 0: in the hole (outside). 1: between hole and outer ring, 0.0005 deg of latitude (55.287 m) from the
        // hole. 2: the middle of the second part, 0.0005 deg of latitude from its edges. 3: between the parts.
        // 4: 0.0002 deg (22.115 m) north of the lane's path: 27.885 m inside. 5: 0.0005 deg of longitude
        // (55.66 m) past the lane's east end: 5.66 m outside. 6: 110.6 m north of the path: outside.
        let expected: [(String, Double)] = [("1,square with hole", -55.287), ("2,two parts", -55.287), ("4,lane", -27.885)]
        #expect(rows.count == expected.count + 1, "\(rows)")
        for (row, (prefix, distance)) in zip(rows.dropFirst(), expected) {
            #expect(row.hasPrefix(prefix + ","), "\(row)")
            let value = try #require(Double(row.split(separator: ",").last!))
            #expect(abs(value - distance) < 0.05, "\(row): expected \(distance)")
        }
        #expect(outcome.standardError.contains("query: 7 points, 3 fences"), "\(outcome.standardError)")
    }

    @Test func fencesListShowsEachShape() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("equator.geojson")
        try Self.equatorShapes.write(to: fences, atomically: true, encoding: .utf8)
        let circles = directory.appendingPathComponent("circles.csv")
        try "id,lat,lon,radius_m\n\"stop, north\",0.5,0.5,120\n".write(to: circles, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("store.db").path
        for file in [fences, circles] {
            let imported = try GeofenceExecutable.run(["fences", "import", file.path, "--store", store])
            try #require(imported.status == 0, "\(imported.standardError)")
        }
        let list = try GeofenceExecutable.run(["fences", "list", "--store", store])
        #expect(list.status == 0, "\(list.standardError)")
        let rows = Set(list.standardOutput.split(separator: "\n").map(String.init))
        #expect(rows == [
            "id,shape,lat,lon,radius_m,half_width_m,vertices,state,speed_limit_kmh,schedule",
            "square with hole,polygon,0,0,,,8,unknown,,",
            "two parts,polygon,0.0105,0.0155,,,8,unknown,,",
            "lane,corridor,0,0.0045,,50,2,unknown,,",
            "\"stop, north\",circle,0.5,0.5,120,,,unknown,,",
        ], "\(list.standardOutput)")

        // CSV export names the first shape CSV cannot hold; the store is unchanged.
        let csv = try GeofenceExecutable.run(["fences", "export", "--store", store, "--format", "csv"])
        #expect(csv.status == 1 && csv.standardOutput.isEmpty)
        #expect(csv.standardError.contains("cannot write region \"square with hole\" as CSV"), "\(csv.standardError)")
        #expect(try GeofenceExecutable.run(["fences", "list", "--store", store]).standardOutput == list.standardOutput)
    }

    @Test func fencesImportRefusesInvalidPolygonsAndLeavesTheStoreUnchanged() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("equator.geojson")
        try Self.equatorShapes.write(to: fences, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("store.db").path
        let imported = try GeofenceExecutable.run(["fences", "import", fences.path, "--store", store])
        try #require(imported.status == 0, "\(imported.standardError)")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let list = try GeofenceExecutable.run(["fences", "list", "--store", store]).standardOutput

        // A valid circle first, then a polygon whose hole lies a degree outside its shell: nothing is imported.
        let bad = directory.appendingPathComponent("bad.geojson")
        try (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"ok","geometry":{"type":"Point","#
            + #""coordinates":[1,1]},"properties":{"radius":50}},{"type":"Feature","id":"far hole","geometry":"#
            + #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]],[[2,0.2],[2.5,0.2],[2.5,0.8],"#
            + #"[2,0.2]]]},"properties":{}}]}"#).write(to: bad, atomically: true, encoding: .utf8)
        let refused = try GeofenceExecutable.run(["fences", "import", bad.path, "--store", store])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains(#"feature 2 (id "far hole")"#)
            && refused.standardError.contains("geometry.coordinates[1]")
            && refused.standardError.contains("lies outside its outer ring"), "\(refused.standardError)")
        #expect(try GeofenceExecutable.run(["fences", "list", "--store", store]).standardOutput == list)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the store file is byte-identical")
    }
}
