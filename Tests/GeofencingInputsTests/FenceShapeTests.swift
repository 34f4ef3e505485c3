// Polygons and corridors in fence files: GeoJSON Polygon, MultiPolygon and LineString features read into regions
// (real boundary files included), written back as GIS tools expect (holes grouped with their parts) and read back
// equal; CSV refuses them by name.
import Foundation
import Geofencing
import GeofencingInputs
import GeofencingWriters
import Testing

@Suite("Fence file shapes")
struct FenceShapeTests {
    private static func point(_ longitude: Double, _ latitude: Double) -> Coordinate {
        Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A closed square ring, `size` degrees a side, its south-west corner at (longitude, latitude).
    private static func square(_ longitude: Double, _ latitude: Double, _ size: Double) -> [Coordinate] {
        [point(longitude, latitude), point(longitude + size, latitude), point(longitude + size, latitude + size),
         point(longitude, latitude + size), point(longitude, latitude)]
    }

    private static func collection(_ features: String...) -> Data {
        Data(("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}").utf8)
    }

    @Test("Polygon, MultiPolygon and LineString features read into polygon and corridor regions")
    func readsShapes() throws {
        let data = Self.collection(
            #"{"type":"Feature","id":"park","geometry":{"type":"Polygon","coordinates":[[[4,52],[5,52],[5,53],[4,53],"#
                + #"[4,52]],[[4.2,52.2],[4.4,52.2],[4.4,52.4],[4.2,52.2]]]},"#
                + #""properties":{"notify_on_exit":false,"dwell_s":60,"hysteresis_m":3,"radius":500}}"#,
            #"{"type":"Feature","geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],"#
                + #"[[[2,0],[3,0],[3,1],[2,0]]]]},"properties":{"name":"islands"}}"#,
            #"{"type":"Feature","id":7,"geometry":{"type":"LineString","coordinates":[[153,-27.5,12],[153.1,-27.4]]},"#
                + #""properties":{"half_width_m":25.5}}"#,
            #"{"type":"Feature","id":"road","geometry":{"type":"LineString","coordinates":[[153,-27.5],[153.1,-27.4]]},"#
                + #""properties":{"width_m":15}}"#,
            // An open ring (no closing position): closed on reading.
            #"{"type":"Feature","id":"open","geometry":{"type":"Polygon","coordinates":[[[10,10],[11,10],[11,11]]]},"#
                + #""properties":null}"#)
        let contents = try FenceFile.parse(data, name: "f.geojson")
        #expect(contents.format == .geojson && contents.warnings.isEmpty)
        let regions = contents.regions
        #expect(regions.map(\.identifier) == ["park", "islands", "7", "road", "open"])
        var park = Region(
            shape: .polygon(rings: [[Self.point(4, 52), Self.point(5, 52), Self.point(5, 53), Self.point(4, 53),
                                     Self.point(4, 52)],
                                    [Self.point(4.2, 52.2), Self.point(4.4, 52.2), Self.point(4.4, 52.4),
                                     Self.point(4.2, 52.2)]]),
            identifier: "park", notifyOnExit: false, dwellTime: 60, hysteresis: 3)
        park.sourceDatum = .wgs84
        #expect(regions[0] == park, "properties.radius of a polygon is ignored")
        #expect(regions[1].shape == .polygon(rings: [
            [Self.point(0, 0), Self.point(1, 0), Self.point(1, 1), Self.point(0, 0)],
            [Self.point(2, 0), Self.point(3, 0), Self.point(3, 1), Self.point(2, 0)]]))
        #expect(regions[2].shape == .corridor(path: [Self.point(153, -27.5), Self.point(153.1, -27.4)],
                                              halfWidth: 25.5))
        #expect(regions[3].shape == .corridor(path: [Self.point(153, -27.5), Self.point(153.1, -27.4)],
                                              halfWidth: 7.5), "width_m is the full width")
        #expect(regions[4].shape == .polygon(rings: [[Self.point(10, 10), Self.point(11, 10), Self.point(11, 11),
                                                      Self.point(10, 10)]]))
        #expect(regions.allSatisfy { $0.radius == nil })
    }

    /// Regions of every shape, each as a file would give it (rings closed, grouped by parts).
    static let shapedRegions: [Region] = {
        let thirds = [point(1.0 / 3.0, 2.0 / 3.0), point(0.3333334, 0.7), point(0.4, 0.6666666666666666),
                      point(1.0 / 3.0, 2.0 / 3.0)]
        var holes = Region(shape: .polygon(rings: [square(153, -27.5, 0.1), square(153.02, -27.48, 0.01),
                                                   square(153.05, -27.45, 0.02)]),
                           identifier: "holes", notifyOnEntry: false, dwellTime: 12.5)
        holes.hysteresis = 1e-3
        // Part A with a hole holding an island (a part of its own), and a part B beside A.
        let parts = Region(shape: .polygon(rings: [square(4, 52, 1), square(4.2, 52.2, 0.5),
                                                   square(4.3, 52.3, 0.1), square(6, 52, 0.5), thirds]),
                           identifier: "parts \"multi\"")
        let route = Region(shape: .corridor(path: [point(-0.0, 1e-7), point(179.99999999999997, 84.99999999999999)],
                                            halfWidth: 100.0 / 7.0), identifier: "route")
        let circle = Region(center: point(153.0251, -27.4698), radius: 100, identifier: "circle")
        return [holes, parts, route, circle]
    }()

    @Test("every shape written as GeoJSON reads back equal; holes go with the part containing them")
    func roundTrip() throws {
        let regions = Self.shapedRegions
        // The route spans more than 180 degrees: fine for the file format, refused by the monitor; leave it out of
        // the read-back (which checks what the monitor takes) and check its text instead.
        let monitorable = regions.filter { $0.identifier != "route" }
        let text = FenceFile.geojson(monitorable)
        #expect(try FenceFile.parse(Data(text.utf8), name: "export.geojson").regions == monitorable)

        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let geometries = try #require((json["features"] as? [[String: Any]])?.map { $0["geometry"] as? [String: Any] })
        #expect(geometries.map { $0?["type"] as? String } == ["Polygon", "MultiPolygon", "Point"])
        // The multi-polygon's parts as GIS tools must see them: A with its hole, the island, B, the thirds triangle.
        let parts = try #require(geometries[1]?["coordinates"] as? [[[[Double]]]])
        #expect(parts.map(\.count) == [2, 1, 1, 1])
        #expect(parts[1][0][0] == [4.3, 52.3], "the island in A's hole is a part, not a second hole")

        let line = FenceFile.geojson([regions[2]])
        #expect(line.contains(#""geometry":{"type":"LineString","coordinates":[[0,1e-07],[179.99999999999997,"#
            + #"84.99999999999999]]},"properties":{"id":"route","half_width_m":14.285714285714286}"#))
    }

    @Test("a polygon the monitor refuses is refused by the reader, with the monitor's reason")
    func monitorRefusal() throws {
        let data = Self.collection(#"{"type":"Feature","id":"wide","geometry":{"type":"Polygon","coordinates":"#
            + #"[[[179,1],[-179,1],[-179,2],[179,1]]]},"properties":{}}"#)
        let error = #expect(throws: FenceFileError.self) { try FenceFile.parse(data, name: "wide.geojson") }
        #expect(error?.feature == 1 && error?.featureIdentifier == "wide" && error?.field == "geometry")
        #expect(error?.message.hasPrefix("the region shape is invalid") == true, "\(String(describing: error))")
    }

    /// What a Polygon or MultiPolygon declares and the even-odd rule would not mean: refused, naming the member.
    @Test("invalid polygons are refused with the member at fault", arguments: [
        // Two parts overlapping: a point in the overlap is in the union, but even-odd would put it outside.
        (#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,1],[0,0]]],"#
            + #"[[[0.5,0.5],[1.5,0.5],[1.5,1.5],[0.5,1.5],[0.5,0.5]]]]}"#, "geometry.coordinates[0][0]",
         "crosses or shares an edge with geometry.coordinates[1][0] near"),
        (#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,1],[0,0]]],"#
            + #"[[[0.2,0.2],[0.4,0.2],[0.4,0.4],[0.2,0.4],[0.2,0.2]]]]}"#, "geometry.coordinates[1]",
         "lies inside geometry.coordinates[0]: the polygons of a MultiPolygon may not overlap"),
        // A hole a degree outside its shell: even-odd would make the "hole" a second area, 100 km away.
        (#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]],"#
            + #"[[2,0.2],[2.5,0.2],[2.5,0.8],[2,0.2]]]}"#, "geometry.coordinates[1]",
         "is a hole that lies outside its outer ring geometry.coordinates[0]"),
        (#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,1],[0,0]],[[2.2,0.2],[2.4,0.2],[2.4,0.4],"#
            + #"[2.2,0.2]]],[[[2,0],[3,0],[3,1],[2,1],[2,0]]]]}"#, "geometry.coordinates[0][1]",
         "is a hole that lies inside geometry.coordinates[1][0], of another polygon, not directly inside its own"),
        (#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]],"#
            + #"[[0.1,0.1],[0.9,0.1],[0.9,0.9],[0.1,0.9],[0.1,0.1]],[[0.4,0.4],[0.6,0.4],[0.6,0.6],[0.4,0.4]]]}"#,
         "geometry.coordinates[2]", "is a hole that lies inside another hole of its polygon, geometry.coordinates[1]"),
        (#"{"type":"Polygon","coordinates":[[[0.4,0.4],[0.6,0.4],[0.6,0.6],[0.4,0.4]],"#
            + #"[[0,0],[1,0],[1,1],[0,1],[0,0]]]}"#, "geometry.coordinates[0]",
         "is an outer ring that lies inside its own hole geometry.coordinates[1]"),
        // Zero-area rings, a ring crossing itself, a hole crossing its shell.
        (#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]],"#
            + #"[[0.1,0.1],[0.2,0.2],[0.3,0.3],[0.1,0.1]]]}"#, "geometry.coordinates[1]", "encloses no area"),
        (#"{"type":"Polygon","coordinates":[[[1,1],[1,1],[1,1],[1,1]]]}"#, "geometry.coordinates[0]",
         "encloses no area"),
        (#"{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,0.3],[0,0]]]}"#, "geometry.coordinates[0]",
         "crosses or touches itself near"),
        (#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]],"#
            + #"[[0,0.5],[0.5,0.7],[-0.5,0.5],[0,0.5]]]}"#, "geometry.coordinates[0]",
         "crosses or shares an edge with geometry.coordinates[1] near"),
    ])
    func invalidPolygons(geometry: String, field: String, message: String) throws {
        let data = Self.collection(#"{"type":"Feature","id":"bad","geometry":"# + geometry + #","properties":{}}"#)
        let error = #expect(throws: FenceFileError.self) { try FenceFile.parse(data, name: "bad.geojson") }
        #expect(error?.feature == 1 && error?.featureIdentifier == "bad")
        #expect(error?.field == field && error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("a star of edges meeting at one point is refused at once, naming where")
    func adversarialStar() throws {
        // 30,000 triangles around one centre: every edge meets it. The core refuses it as too dense for a bounded
        // query (building its grid within the memory budget first), instead of taking it.
        var positions: [String] = []
        for k in 0..<30_000 {
            let angle = Double(k) / 30_000 * 2 * .pi, next = Double(k + 1) / 30_000 * 2 * .pi
            positions += ["[153,-27]", "[\(153 + 0.01 * cos(angle)),\(-27 + 0.01 * sin(angle))]",
                          "[\(153 + 0.01 * cos(next)),\(-27 + 0.01 * sin(next))]"]
        }
        let data = Self.collection(#"{"type":"Feature","id":"star","geometry":{"type":"Polygon","coordinates":[["#
            + positions.joined(separator: ",") + #",[153,-27]]]},"properties":{}}"#)
        let error = #expect(throws: FenceFileError.self) { try FenceFile.parse(data, name: "star.geojson") }
        #expect(error?.field == "geometry.coordinates" && error?.message.contains("edges crowded together") == true,
                "\(String(describing: error))")

        // A shell with 100,000 identical holes: refused as crowded, not grouped pair by pair.
        let hole = "[[153.001,-27.001],[153.002,-27.001],[153.002,-27.002],[153.001,-27.001]]"
        let holes = Self.collection(#"{"type":"Feature","id":"holes","geometry":{"type":"Polygon","coordinates":["#
            + "[[152.9,-27.1],[153.1,-27.1],[153.1,-26.9],[152.9,-26.9],[152.9,-27.1]],"
            + Array(repeating: hole, count: 100_000).joined(separator: ",") + #"]},"properties":{}}"#)
        let refused = #expect(throws: FenceFileError.self) { try FenceFile.parse(holes, name: "holes.geojson") }
        #expect(refused?.field == "geometry.coordinates"
            && refused?.message.contains("edges crowded together") == true, "\(String(describing: refused))")
    }

    @Test("a polygon with 10,000 separate holes reads, monitors and writes back with its holes")
    func manyHoles() throws {
        var rings = [Self.square(153, -27.1, 0.2)]
        for k in 0..<10_000 {
            rings.append(Self.square(153.001 + Double(k % 100) * 0.0019, -27.099 + Double(k / 100) * 0.0019, 0.001))
        }
        let region = Region(shape: .polygon(rings: rings), identifier: "sieve")
        let text = FenceFile.geojson([region])
        let back = try #require(try FenceFile.parse(Data(text.utf8), name: "sieve.geojson").regions.first)
        #expect(back.shape == region.shape)
        let index = try RegionIndex(regions: [back])
        #expect(index.regions(containing: Self.point(153.0015, -27.0985)).isEmpty, "in the first hole")
        #expect(index.regions(containing: Self.point(153.0025, -27.0985)).count == 1, "between holes")
    }

    @Test("valid polygons read and are decided as GeoJSON means: an island in a lake, parts touching at a corner")
    func validPolygonsMeanWhatTheySay() throws {
        let data = Self.collection(
            #"{"type":"Feature","id":"lake","geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],"#
                + #"[0,1],[0,0]],[[0.1,0.1],[0.1,0.9],[0.9,0.9],[0.9,0.1],[0.1,0.1]]],[[[0.4,0.4],[0.6,0.4],[0.6,0.6],"#
                + #"[0.4,0.6],[0.4,0.4]]],[[[1,1],[2,1],[2,2],[1,1]]]]},"properties":{}}"#)
        let regions = try FenceFile.parse(data, name: "lake.geojson").regions
        let index = try RegionIndex(regions: regions)
        for (longitude, latitude, inside) in [(0.05, 0.5, true), (0.2, 0.5, false), (0.5, 0.5, true),
                                              (1.9, 1.1, true), (1.1, 1.9, false), (1.5, 0.5, false)] {
            #expect(index.regions(containing: Self.point(longitude, latitude)).isEmpty != inside,
                    "(\(longitude), \(latitude))")
        }
    }

    @Test("a polygon made in code: open rings written closed, rings out of part order grouped, the area the same")
    func codeMadePolygonIsWrittenForGIS() throws {
        let a = Array(Self.square(0, 0, 1).dropLast())
        let b = Self.square(2, 0, 1)
        let holeInA = Self.square(0.25, 0.25, 0.5)
        let region = Region(shape: .polygon(rings: [a, b, holeInA]), identifier: "z")
        let text = FenceFile.geojson([region])
        #expect(text.contains(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,1],[0,0]],"#
            + #"[[0.25,0.25],[0.75,0.25],[0.75,0.75],[0.25,0.75],[0.25,0.25]]],[[[2,0],[3,0],[3,1],[2,1],[2,0]]]]}"#))
        let back = try #require(try FenceFile.parse(Data(text.utf8), name: "z.geojson").regions.first)
        #expect(back.shape == .polygon(rings: [a + [a[0]], holeInA, b]))
        // The same area: the monitor classifies test points alike.
        let original = try RegionIndex(regions: [region])
        let reread = try RegionIndex(regions: [back])
        for probe in [Self.point(0.1, 0.1), Self.point(0.5, 0.5), Self.point(2.5, 0.5), Self.point(1.5, 0.5)] {
            #expect(original.regions(containing: probe).count == reread.regions(containing: probe).count)
        }
        #expect(reread.regions(containing: Self.point(0.5, 0.5)).isEmpty, "the hole stays a hole")
    }

    @Test("shapes given in GCJ-02 or Tokyo are converted, keep their datum, and are exported in it")
    func datumShapes() throws {
        let data = Self.collection(
            #"{"type":"Feature","id":"gcj","geometry":{"type":"Polygon","coordinates":[[[116.38,39.91],"#
                + #"[116.39,39.91],[116.39,39.92],[116.38,39.91]]]},"properties":{"datum":"gcj02"}}"#,
            #"{"type":"Feature","id":"tokyo","geometry":{"type":"LineString","coordinates":[[139.7445839,35.6548652],"#
                + #"[139.75,35.66]]},"properties":{"half_width_m":30}}"#)
        let regions = try FenceFile.parse(data, name: "d.geojson", datum: .tokyo).regions
        #expect(regions.map(\.sourceDatum) == [.gcj02, .tokyo])
        let gcjRing = Region(shape: .polygon(rings: [[Self.point(116.38, 39.91), Self.point(116.39, 39.91),
                                                      Self.point(116.39, 39.92), Self.point(116.38, 39.91)]]),
                             in: .gcj02, identifier: "gcj")
        #expect(regions[0] == gcjRing, "every vertex converted as Region(shape:in:) converts it")
        guard case .polygon(let rings) = regions[0].shape, case .polygon(let given) = regions[0].sourceShape else {
            Issue.record("not a polygon: \(regions[0].shape)")
            return
        }
        #expect(abs(rings[0][0].latitude - 39.91) > 1e-3, "stored in WGS-84, hundreds of metres from the GCJ-02 text")
        #expect(abs(given[0][0].latitude - 39.91) < 1e-8 && abs(given[0][0].longitude - 116.38) < 1e-8)

        let text = FenceFile.geojson(regions)
        #expect(text.contains("\"datum\":\"gcj02\"") && text.contains("\"datum\":\"tokyo\""))
        let back = try FenceFile.parse(Data(text.utf8), name: "export.geojson").regions
        #expect(back.map(\.sourceDatum) == [.gcj02, .tokyo])
        for (read, original) in zip(back, regions) {
            let pairs: [(Coordinate, Coordinate)] = switch (read.shape, original.shape) {
            case (.polygon(let r), .polygon(let o)): Array(zip(r.flatMap { $0 }, o.flatMap { $0 }))
            case (.corridor(let r, _), .corridor(let o, _)): Array(zip(r, o))
            default: []
            }
            #expect(!pairs.isEmpty)
            // Within the conversions' round-trip bound (0.2 mm; 1e-8 degrees is about 1 mm).
            #expect(pairs.allSatisfy { abs($0.latitude - $1.latitude) < 1e-8 && abs($0.longitude - $1.longitude) < 1e-8 })
        }
    }

    @Test("CSV refuses a polygon or corridor by name and suggests GeoJSON")
    func csvRefusesShapes() throws {
        let regions = Self.shapedRegions
        let error = #expect(throws: FenceWriteError.self) { try FenceFile.csv([regions[3], regions[2], regions[0]]) }
        #expect(error == FenceWriteError(format: .csv, identifier: "route", message: "it is a corridor, and CSV holds "
            + "circles only (id, lat, lon, radius_m); write GeoJSON instead, which holds every shape"))
        #expect(error?.description == "cannot write region \"route\" as CSV: it is a corridor, and CSV holds circles "
            + "only (id, lat, lon, radius_m); write GeoJSON instead, which holds every shape")
        let polygon = #expect(throws: FenceWriteError.self) { try FenceFile.csv([regions[1]]) }
        #expect(polygon?.description.hasPrefix("cannot write region \"parts \"multi\"\" as CSV: it is a polygon")
            == true, "\(String(describing: polygon))")
        #expect(try FenceFile.csv([regions[3]]) == "id,lat,lon,radius_m\ncircle,-27.4698,153.0251,100\n")
    }

    // MARK: - Real boundary files

    /// A shared boundary file: every feature a MultiPolygon named by properties.name, read as a polygon region that
    /// the monitor accepts and that contains `inside` (capital cities), and written back and read again equal.
    @Test(.enabled(if: TestData.isSharedDataAvailable, TestData.skipMessage), arguments: [
        ("polygons/australia.geojson", 9, [("Australian Capital Territory", -35.2809, 149.1300),
                                           ("Victoria", -37.8136, 144.9631), ("Western Australia", -31.9523, 115.8613),
                                           ("Tasmania", -42.8821, 147.3272)]),
        ("polygons/the-netherlands.geojson", 12, [("Noord-Holland", 52.3676, 4.9041), ("Utrecht", 52.0907, 5.1214),
                                                  ("Groningen", 53.2194, 6.5665), ("Zeeland", 51.4988, 3.6110)]),
    ])
    func sharedBoundaryFile(file: String, count: Int, capitals: [(String, Double, Double)]) throws {
        let path = TestData.shared(file).path
        let contents = try FenceFile.read(path: path)
        #expect(contents.format == .geojson && contents.warnings.isEmpty)
        #expect(contents.regions.count == count)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
            as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        for (region, feature) in zip(contents.regions, features) {
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(region.identifier == properties["name"] as? String)
            let parts = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [[[[Double]]]])
            guard case .polygon(let rings) = region.shape else {
                Issue.record("\(region.identifier) is not a polygon")
                continue
            }
            #expect(rings.count == parts.reduce(0) { $0 + $1.count }, "\(region.identifier): every ring of every part")
            #expect(Set(rings.flatMap { $0 }.map { [$0.longitude, $0.latitude] })
                == Set(parts.flatMap { $0 }.flatMap { $0 }), "\(region.identifier): every position, exactly")
        }
        let index = try RegionIndex(regions: contents.regions)
        for (name, latitude, longitude) in capitals {
            let found = index.regions(containing: Coordinate(latitude: latitude, longitude: longitude))
            #expect(found.map(\.region.identifier) == [name], "\(name): \(found.map(\.region.identifier))")
        }
        let text = FenceFile.geojson(contents.regions)
        #expect(try FenceFile.parse(Data(text.utf8), name: "export.geojson").regions == contents.regions)
    }
}
