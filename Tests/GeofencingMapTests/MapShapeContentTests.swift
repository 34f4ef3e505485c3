// Polygons and corridors in the page's data: their outlines in plane metres, the view that fits them, thinning of
// large polygons under the vertex budget, and shapes that cannot be drawn left out.
import Foundation
import Geofencing
@testable import GeofencingMap
import GeofencingTestSupport
import Testing

/// A circle, a polygon with a hole, and a corridor near Brisbane, at known offsets (metres east, north).
enum MapShapeData {
    static let origin = MapTestData.brisbane

    static func at(_ east: Double, _ north: Double) -> Coordinate {
        MapTestData.offset(origin, east: east, north: north)
    }

    /// 400 m square east 1000 ... 1400, north -200 ... 200, given closed as GeoJSON gives it; a 100 m square hole
    /// in its middle (east 1150 ... 1250, north -50 ... 50).
    static let block = Region(
        shape: .polygon(rings: [
            [at(1000, -200), at(1400, -200), at(1400, 200), at(1000, 200), at(1000, -200)],
            [at(1150, -50), at(1150, 50), at(1250, 50), at(1250, -50)],
        ]),
        identifier: "block")
    /// From (-400, -300) east to (0, -300), then south-east to (300, -600); 30 m each side.
    static let lane = Region(
        shape: .corridor(path: [at(-400, -300), at(0, -300), at(300, -600)], halfWidth: 30), identifier: "lane")
    static let stop = Region(center: at(0, 0), radius: 100, identifier: "stop")

    static var regions: [Region] { [stop, block, lane] }

    /// The "shapes" entries of a page's data, keyed by the fence identifier they belong to.
    static func shapes(_ data: [String: Any]) throws -> [String: [String: Any]] {
        let ids = try #require((data["fences"] as? [String: Any])?["id"] as? [String])
        let shapes = try #require(data["shapes"] as? [[String: Any]])
        var byIdentifier: [String: [String: Any]] = [:]
        for shape in shapes {
            let index = try #require(shape["i"] as? Int)
            byIdentifier[ids[index]] = shape
        }
        return byIdentifier
    }

    /// Flat [x, y, x, y, ...] as points.
    static func points(_ flat: [Double]) -> [(x: Double, y: Double)] {
        stride(from: 0, to: flat.count - 1, by: 2).map { (flat[$0], flat[$0 + 1]) }
    }

    /// The regions of a GeoJSON file of Polygon and MultiPolygon features, one region per feature with every ring
    /// of every part (the monitor's even-odd rule over all rings), identified by properties.name. Read here with
    /// JSONSerialization so the map tests do not depend on the fence file readers.
    static func polygons(geojson url: URL) throws -> [Region] {
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: url)) as? [String: Any]
        let features = try #require(object?["features"] as? [[String: Any]])
        return try features.map { feature in
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let name = try #require((feature["properties"] as? [String: Any])?["name"] as? String)
            let coordinates = try #require(geometry["coordinates"] as? [Any])
            let polygons = geometry["type"] as? String == "MultiPolygon" ? coordinates : [coordinates]
            var rings: [[Coordinate]] = []
            for polygon in polygons {
                for ring in try #require(polygon as? [[[Double]]]) {
                    rings.append(ring.map { Coordinate(latitude: $0[1], longitude: $0[0]) })
                }
            }
            return Region(shape: .polygon(rings: rings), identifier: name)
        }
    }
}

@Suite("Map page contents: polygons and corridors")
struct MapShapeContentTests {
    @Test("a polygon with a hole and a corridor are in the data, in plane metres, next to a circle")
    func polygonAndCorridorInPayload() throws {
        let html = MapDocument(title: "Shapes", regions: MapShapeData.regions).html()
        let data = try MapTestData.embeddedData(html)
        #expect(data["version"] as? Int == 2)
        let fences = try #require(data["fences"] as? [String: Any])
        #expect(fences["id"] as? [String] == ["stop", "block", "lane"])
        let radii = try #require(fences["r"] as? [Any])
        #expect(radii[0] as? Double == 100 && radii[1] is NSNull && radii[2] is NSNull, "\(radii)")
        let shapes = try MapShapeData.shapes(data)
        let stop = try #require((fences["x"] as? [Double])?.first)
        let stopY = try #require((fences["y"] as? [Double])?.first)

        // Plane coordinates relative to the circle's centre are the offsets the shapes were made from, to the
        // projection's scale away from the map's centre latitude (under 1e-4 over 600 m) and 1 cm rounding.
        let block = try #require(shapes["block"])
        #expect(block["type"] as? String == "polygon")
        let rings = try #require(block["rings"] as? [[Double]])
        #expect(rings.count == 2)
        let outer = MapShapeData.points(rings[0]), hole = MapShapeData.points(rings[1])
        #expect(outer.count == 4, "the closing vertex is not repeated: \(outer)")
        #expect(block["vertices"] as? Int == 8 && block["drawn"] as? Int == 8)
        let expectedOuter = [(1000.0, -200.0), (1400.0, -200.0), (1400.0, 200.0), (1000.0, 200.0)]
        let expectedHole = [(1150.0, -50.0), (1150.0, 50.0), (1250.0, 50.0), (1250.0, -50.0)]
        for (point, expected) in zip(outer + hole, expectedOuter + expectedHole) {
            #expect(abs(point.x - stop - expected.0) < 0.1 && abs(point.y - stopY - expected.1) < 0.1,
                    "\(point) for \(expected)")
        }

        let lane = try #require(shapes["lane"])
        #expect(lane["type"] as? String == "corridor")
        #expect(lane["halfWidth"] as? Double == 30)
        let w = try #require(lane["w"] as? Double)
        #expect(abs(w - 30) < 0.01, "plane half-width \(w)")
        let path = MapShapeData.points(try #require(lane["path"] as? [Double]))
        for (point, expected) in zip(path, [(-400.0, -300.0), (0.0, -300.0), (300.0, -600.0)]) {
            #expect(abs(point.x - stop - expected.0) < 0.1 && abs(point.y - stopY - expected.1) < 0.1, "\(point)")
        }
        #expect(path.count == 3)
        #expect(html.contains("3 fences (2 polygons or corridors, 11 vertices drawn) \u{00b7} 0 track fixes"))
    }

    @Test("fit all includes every polygon vertex and the corridor's half-width")
    func boundsIncludeShapes() throws {
        let data = try MapTestData.embeddedData(MapDocument(title: "Shapes", regions: MapShapeData.regions).html())
        let bounds = try #require(data["bounds"] as? [Double])
        let fences = try #require(data["fences"] as? [String: Any])
        let cx = try #require((fences["x"] as? [Double])?.first), cy = try #require((fences["y"] as? [Double])?.first)
        // West: the corridor's start 400 m west of the circle, less 30 m; east: the polygon at 1400 m; south: the
        // corridor's end 600 m south, less 30 m; north: the polygon at 200 m (the circle reaches 100 m).
        let expected = [cx - 430, cy - 630, cx + 1400, cy + 200]
        for (value, wanted) in zip(bounds, expected) {
            #expect(abs(value - wanted) < 0.2, "bounds \(bounds), expected \(expected)")
        }
        let box = try #require(try MapShapeData.shapes(data)["lane"]?["box"] as? [Double])
        #expect(abs(box[0] - (cx - 430)) < 0.2 && abs(box[1] - (cy - 630)) < 0.2, "\(box)")
    }

    @Test("shapes that cannot be drawn are left out and counted")
    func undrawableShapesSkipped() throws {
        var regions = MapShapeData.regions
        regions.append(Region(
            shape: .polygon(rings: [[MapShapeData.at(0, 0), Coordinate(latitude: .nan, longitude: 153), MapShapeData.at(9, 9)]]),
            identifier: "nan vertex"))
        regions.append(Region(shape: .polygon(rings: [[MapShapeData.at(0, 0), MapShapeData.at(5, 5)]]), identifier: "two"))
        regions.append(Region(shape: .corridor(path: [MapShapeData.at(0, 0)], halfWidth: 10), identifier: "one point"))
        regions.append(Region(shape: .corridor(path: [MapShapeData.at(0, 0), MapShapeData.at(9, 0)], halfWidth: .nan),
                              identifier: "nan width"))
        let data = try MapTestData.embeddedData(MapDocument(title: "t", regions: regions).html())
        #expect((data["skipped"] as? [String: Int])?["fences"] == 4)
        #expect((data["fences"] as? [String: Any])?["id"] as? [String] == ["stop", "block", "lane"])
        #expect((data["shapes"] as? [Any])?.count == 2)
    }

    @Test("a 100,000-vertex polygon is drawn with at most 4,000 vertices, each original vertex within the stated tolerance")
    func largePolygonWithinBudget() throws {
        // A 20 km wide ring with 25 m of noise: thinning to half a pixel at 2000 px (5 m) keeps far more than the
        // budget, so the tolerance doubles until the budget holds.
        let ring = OutlineSimplifierTests.noisyRing(count: 100_000, radius: 10_000, noise: 25, seed: 11)
        let coordinates = zip(ring.x, ring.y).map { MapShapeData.at($0, $1) }
        let region = Region(shape: .polygon(rings: [coordinates]), identifier: "big")
        let started = Date()
        let html = MapDocument(title: "Big", regions: [region]).html()
        let seconds = Date().timeIntervalSince(started)
        let shape = try #require(try MapShapeData.shapes(try MapTestData.embeddedData(html))["big"])
        let drawn = MapShapeData.points(try #require((shape["rings"] as? [[Double]])?.first))
        let tolerance = try #require(shape["tolerance"] as? Double)
        #expect(shape["vertices"] as? Int == 100_000)
        #expect(shape["drawn"] as? Int == drawn.count)
        #expect(drawn.count <= MapOutline.vertexBudget && drawn.count >= 100, "\(drawn.count) vertices drawn")
        #expect(tolerance >= 5 && tolerance <= 80, "tolerance \(tolerance) m")
        print("100k-vertex polygon: \(drawn.count) vertices drawn within \(tolerance) m, page \(html.utf8.count) bytes, \(seconds) s")

        // Every 25th original vertex (plane, relative to the drawn ring's frame: the map's centre is the ring's box
        // centre, here the noisy circle's) is within tolerance + 7 cm rounding of the drawn ring.
        let centreX = (ring.x.min()! + ring.x.max()!) / 2, centreY = (ring.y.min()! + ring.y.max()!) / 2
        var worst = 0.0
        for index in stride(from: 0, to: ring.x.count, by: 25) {
            let px = ring.x[index] - centreX, py = ring.y[index] - centreY
            var nearest = Double.infinity
            for (a, b) in zip(drawn, drawn.dropFirst() + [drawn[0]]) {
                nearest = min(nearest, OutlineSimplifier.segmentDistanceSquared(
                    px: px, py: py, ax: a.x, ay: a.y, bx: b.x, by: b.y))
            }
            worst = max(worst, nearest.squareRoot())
        }
        // The test's own offsets and the map's projection differ by the scale over 10 km off the centre (< 1e-4).
        #expect(worst <= tolerance + 0.07 + 1.5, "worst \(worst) m, tolerance \(tolerance) m")
    }

    @Test("the Australian states: every state drawn with at most 4,000 vertices, the page stays light",
          .enabled(if: SharedData.isAvailable("polygons/australia.geojson"), SharedData.skipMessage("polygons/australia.geojson")))
    func australianStates() throws {
        let regions = try MapShapeData.polygons(geojson: SharedData.url("polygons/australia.geojson"))
        #expect(regions.count == 9)
        let html = MapDocument(title: "Australia", regions: regions).html()
        let data = try MapTestData.embeddedData(html)
        let shapes = try MapShapeData.shapes(data)
        #expect(shapes.count == 9)
        var total = 0, drawnTotal = 0
        for region in regions {
            let shape = try #require(shapes[region.identifier])
            let vertices = try #require(shape["vertices"] as? Int), drawn = try #require(shape["drawn"] as? Int)
            let rings = try #require(shape["rings"] as? [[Double]])
            if case .polygon(let given) = region.shape { #expect(rings.count == given.count, "\(region.identifier)") }
            #expect(drawn <= MapOutline.vertexBudget && drawn <= vertices, "\(region.identifier): \(drawn)")
            #expect(rings.allSatisfy { $0.count >= 6 }, "every ring of \(region.identifier) keeps 3 vertices")
            total += vertices
            drawnTotal += drawn
        }
        #expect(drawnTotal < total)
        #expect(html.utf8.count < 600_000, "page of \(html.utf8.count) bytes")
        let bounds = try #require(data["bounds"] as? [Double])
        #expect(bounds[2] - bounds[0] > 3_500_000 && bounds[3] - bounds[1] > 2_500_000, "the continent: \(bounds)")
        print("Australian states: \(total) vertices, \(drawnTotal) drawn, page \(html.utf8.count) bytes")
    }
}
