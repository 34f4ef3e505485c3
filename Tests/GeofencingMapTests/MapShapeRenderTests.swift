// Polygons and corridors in a real browser: headless Chromium draws them; the screenshot shows the polygon filled
// but not its hole, and the corridor's band as wide as its half-width says.
import Foundation
import Geofencing
@testable import GeofencingMap
import GeofencingTestSupport
import Testing

@Suite("Map rendering of polygons and corridors in Chromium", .enabled(if: Chromium.isAvailable, Chromium.skipMessage))
struct MapShapeRenderTests {
    /// The RGB of the screenshot's pixels at (x, y), decoded by the screenshot check's own PNG reader.
    private func pixels(_ png: String, at points: [(Int, Int)]) throws -> [[Int]] {
        let program = """
            import importlib.util, sys
            spec = importlib.util.spec_from_file_location("check", sys.argv[1])
            check = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(check)
            width, height, rows = check.decode_png(sys.argv[2])
            for text in sys.argv[3:]:
                x, y = map(int, text.split(","))
                print(*(rows[y][3 * x:3 * x + 3] if 0 <= x < width and 0 <= y < height else [-1, -1, -1]))
            """
        let result = try Chromium.run(["/usr/bin/python3", "-c", program, Chromium.checkScript, png]
                                      + points.map { "\($0.0),\($0.1)" })
        try #require(result.status == 0, "\(result.errors)")
        return result.output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
    }

    @Test("the polygon is filled except its hole; the corridor's band ends at its half-width")
    func holeAndBand() throws {
        let document = MapDocument(title: "Shapes", regions: MapShapeData.regions)
        let directory = try Chromium.temporaryDirectory("map-shapes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("map.html")
        try document.write(to: page.path)
        let png = directory.appendingPathComponent("map.png").path
        let check = try Chromium.run(["/usr/bin/python3", Chromium.checkScript, page.path, "--png", png,
                                      "--rendered", "fences=3 track=0 events=0",
                                      "--expect", "fence=\(MapPalette.fence.triple)"])
        #expect(check.status == 0, "\(check.output)\(check.errors)")

        let body = try Chromium.bodyAttributes(try Chromium.dumpDOM(of: page))
        #expect(body["data-shapes"] == "polygons=1 corridors=1 vertices=11", "\(body)")
        #expect(body["data-render-error"] == nil, "\(body)")
        // The screenshot's view: fit all in its 1200 x 800 viewport (40 px padding), as the page's fit() asks
        // Leaflet for; the --dump-dom window has a shorter viewport, so its data-view is not the screenshot's.
        let view = try WebMercator.fitAll(try MapTestData.embeddedData(document.html()))
        let screen = { (east: Double, north: Double) in view.screen(MapShapeData.at(east, north)) }
        let pixelsPerMetre = pow(2, view.zoom) * 256 / 360 / LocalProjection.metresPerDegreeEast(atLatitude: MapShapeData.origin.latitude)
        #expect(pixelsPerMetre * 30 > 10, "the band is wide enough on screen to test: \(pixelsPerMetre) px/m")
        let places: [(name: String, east: Double, north: Double, tinted: Bool)] = [
            ("inside the polygon", 1080, -150, true),
            ("in the polygon's hole", 1200, 0, false),
            ("outside the polygon, west of it", 900, 0, false),
            ("in the band, 15 m from the path", -200, -285, true),
            ("in the band, on the other side", -200, -315, true),
            ("outside the band, 60 m from the path", -200, -360, false),
            ("outside the band's round end", -460, -300, false),
        ]
        let colours = try pixels(png, at: places.map { screen($0.east, $0.north) })
        let background = MapPalette.background, fence = MapPalette.fence
        func mixed(_ a: UInt8, _ b: UInt8) -> Double { 0.9 * Double(a) + 0.1 * Double(b) }
        let tint = [mixed(background.red, fence.red), mixed(background.green, fence.green), mixed(background.blue, fence.blue)]
        let plain = [Double(background.red), Double(background.green), Double(background.blue)]
        for (place, colour) in zip(places, colours) {
            let wanted = place.tinted ? tint : plain
            #expect(colour.count == 3 && zip(colour, wanted).allSatisfy { abs(Double($0) - $1) <= 4 },
                    "\(place.name): \(colour), wanted \(wanted)")
        }
    }

    /// Runs after the page's own script (its hash added to the policy): moves the mouse over the polygon, then the
    /// corridor's band, then the polygon's hole (Leaflet takes hovers 32 ms apart), and records the tooltips shown
    /// after each move in body[data-tooltips]. POINTS is replaced by [[lat, lon], ...].
    private static let hoverScript = """
        (() => {
          const map = window.geofenceMap, points = POINTS, seen = [];
          const canvas = document.querySelector(".leaflet-overlay-pane canvas"), r = map.getContainer().getBoundingClientRect();
          const step = n => {
            if (n > 0) seen.push(Array.from(document.querySelectorAll(".leaflet-tooltip")).map(t => t.textContent));
            if (n === points.length) { document.body.dataset.tooltips = JSON.stringify(seen); return; }
            const at = map.latLngToContainerPoint(points[n]);
            canvas.dispatchEvent(new MouseEvent("mousemove", { clientX: r.left + at.x, clientY: r.top + at.y, bubbles: true }));
            setTimeout(() => step(n + 1), 100);
          };
          setTimeout(() => step(0), 100);
        })();
        """

    @Test("hovering a polygon or a corridor's band names the fence and its shape; its hole shows nothing")
    func tooltips() throws {
        let directory = try Chromium.temporaryDirectory("map-shape-hover")
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("map.html")
        try MapDocument(title: "Shapes", regions: MapShapeData.regions).write(to: page.path)
        let points = [MapShapeData.at(1080, -150), MapShapeData.at(-200, -285), MapShapeData.at(1200, 0)]
            .map { "[\($0.latitude),\($0.longitude)]" }.joined(separator: ",")
        try MapRenderTests.inject(Self.hoverScript.replacingOccurrences(of: "POINTS", with: "[\(points)]"), into: page)
        let body = try Chromium.bodyAttributes(try Chromium.dumpDOM(of: page))
        let json = try #require(body["data-tooltips"]?.replacingOccurrences(of: "&quot;", with: "\""), "\(body)")
        let titles = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]])
        #expect(titles.count == 3, "\(titles)")
        #expect(titles.first?.count == 1 && titles.first?.first?.hasPrefix("block \u{00b7} polygon, 8 vertices in 2 rings \u{00b7} centre -27.467") == true,
                "\(titles)")
        #expect(titles.dropFirst().first?.count == 1 && titles.dropFirst().first?.first?.hasPrefix("lane \u{00b7} corridor, half-width 30 m, 3 vertices \u{00b7} centre -27.47") == true,
                "\(titles)")
        #expect(titles.last == [], "the hole is not the polygon: \(titles)")
    }
}
