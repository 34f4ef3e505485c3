// The page in a real browser: headless Chromium draws it on Leaflet, scripts/check-map-screenshot.py decodes the
// screenshot, looks for the map's colours and reads Chromium's network log (no request without tiles; with the
// loopback tile server of scripts/tile-server.py, tile requests only), and the DOM after rendering shows what the
// script drew.
import Foundation
import Geofencing
@testable import GeofencingMap
import GeofencingTestSupport
import Testing

@Suite("Map rendering in Chromium", .enabled(if: Chromium.isAvailable, Chromium.skipMessage))
struct MapRenderTests {
    /// Writes `document` to a new temporary folder; returns the page's URL.
    private func written(_ document: MapDocument) throws -> URL {
        let page = try Chromium.temporaryDirectory("map-page").appendingPathComponent("map.html")
        try document.write(to: page.path)
        return page
    }

    private func check(_ page: URL, _ extra: [String]) throws -> Chromium.Result {
        let png = page.deletingLastPathComponent().appendingPathComponent("map.png").path
        return try Chromium.run(["/usr/bin/python3", Chromium.checkScript, page.path, "--png", png] + extra)
    }

    private var paletteArguments: [String] {
        ["--expect", "fence=\(MapPalette.fence.triple)",
         "--expect", "track-outside=\(MapPalette.trackOutside.triple)",
         "--expect", "track-inside=\(MapPalette.trackInside.triple)"]
    }

    @Test("the drive renders: marker set, screenshot not blank, fence and both track colours on the map")
    func driveScreenshot() throws {
        let drive = MapTestData.drive()
        let page = try written(MapDocument(title: "Drive", regions: drive.regions, track: drive.track, events: drive.events))
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        let result = try check(page, paletteArguments + ["--rendered", "fences=3 track=151 events=6"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(FileManager.default.fileExists(atPath: page.deletingLastPathComponent().appendingPathComponent("map.png").path))
        print(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("the check fails when the map lacks a colour (the legend's swatches do not count)")
    func checkFailsWithoutTrack() throws {
        let drive = MapTestData.drive()
        let page = try written(MapDocument(title: "Fences only", regions: drive.regions))
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        let result = try check(page, paletteArguments + ["--rendered", "fences=3 track=0 events=0"])
        #expect(result.status == 1, "\(result.output)\(result.errors)")
        #expect(result.errors.contains("track-outside") && result.errors.contains("track-inside"), "\(result.errors)")
        #expect(!result.errors.contains("fence (31, 95, 191)"), "the fences are there: \(result.errors)")
        let wrongCount = try check(page, ["--rendered", "fences=4 track=0 events=0", "--expect", "fence=\(MapPalette.fence.triple)"])
        #expect(wrongCount.status == 1 && wrongCount.errors.contains("fences=3 track=0 events=0"), "\(wrongCount.errors)")
    }

    @Test("hostile identifiers render as text: the script runs, no element is injected")
    func hostileIdentifiersInBrowser() throws {
        let drive = MapTestData.drive(identifiers: MapTestData.hostileIdentifiers)
        let document = MapDocument(title: "</title><script>document.body.dataset.owned=1</script>",
                                   regions: drive.regions, track: drive.track, events: drive.events)
        let page = try written(document)
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        let dom = try Chromium.dumpDOM(of: page)
        let body = try Chromium.bodyAttributes(dom)
        #expect(body["data-rendered"] == "fences=6 track=151 events=\(drive.events.count)", "\(body)")
        #expect(body["data-owned"] == nil && body["data-render-error"] == nil, "\(body)")
        #expect((Int(body["data-labels"] ?? "") ?? 0) >= 3, "labels drawn (long ones may hide each other): \(body)")
        #expect(dom.components(separatedBy: "<script").count - 1 == 4)
        for element in ["<img", "<svg onload"] {
            #expect(!dom.contains(element), "the DOM has \(element)")
        }
        #expect(dom.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), "the identifier shows as text")
    }

    /// The zoom and the bar of a page's view: data-view "zoom lat lon width height", data-scale-bar "L m W px".
    private func viewAndBar(_ body: [String: String]) throws -> (view: [Double], metres: Double, pixels: Double) {
        let view = try #require(body["data-view"]?.split(separator: " ").compactMap { Double($0) }, "\(body)")
        let bar = try #require(body["data-scale-bar"]?.split(separator: " "), "\(body)")
        try #require(view.count == 5 && bar.count == 4, "\(body)")
        return (view, try #require(Double(bar[0])), try #require(Double(bar[2])))
    }

    @Test("the scale bar is true: fences a known distance apart measure that distance with it", arguments: [1.0, 40.0])
    func scaleBarIsTrue(spacingKilometres: Double) throws {
        let origin = Coordinate(latitude: -27.4679357, longitude: 153.0281038)
        let regions = (0...2).map { index in
            Region(center: MapTestData.offset(origin, east: Double(index) * spacingKilometres * 1000, north: 0),
                           radius: 100, identifier: "f\(index)")
        }
        let page = try written(MapDocument(title: "Scale", regions: regions))
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        let (view, barMetres, barPixels) = try viewAndBar(try Chromium.bodyAttributes(try Chromium.dumpDOM(of: page)))
        // Pixels between the outer fences along their parallel, from Web Mercator at the page's zoom.
        let pixels = WebMercator.pixel(regions[2].center, zoom: view[0]).x - WebMercator.pixel(regions[0].center, zoom: view[0]).x
        let measured = pixels * barMetres / barPixels
        let truth = 2 * spacingKilometres * 1000
        #expect(abs(measured - truth) < truth * 0.001, "measured \(measured) m with the bar, truth \(truth) m")
        #expect(barPixels > 40 && barPixels <= 120, "\(barPixels) px")
        let leading = barMetres / pow(10, (log10(barMetres)).rounded(.down))
        #expect([1, 2, 5].contains(leading.rounded()) && abs(leading - leading.rounded()) < 1e-9, "\(barMetres)")
    }

    @Test("the page's policy stops a script that got into the page; the page's own script still runs")
    func policyBlocksInjectedScript() throws {
        let drive = MapTestData.drive()
        let page = try written(MapDocument(title: "Drive", regions: drive.regions))
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        let html = try String(contentsOf: page, encoding: .utf8)
        let injected = html.replacingOccurrences(
            of: "</body>", with: "<script>document.body.dataset.owned = 'yes'</script><img src=x onerror=\"document.body.dataset.owned = 'img'\"></body>")
        try injected.write(to: page, atomically: true, encoding: .utf8)
        let body = try Chromium.bodyAttributes(try Chromium.dumpDOM(of: page))
        #expect(body["data-rendered"] == "fences=3 track=0 events=0", "\(body)")
        #expect(body["data-owned"] == nil, "the injected script ran: \(body)")
    }

    @Test("zoomed in through the address: the view is the one asked for, the scale bar stays true, fences get labels")
    func zoomedView() throws {
        let drive = MapTestData.drive()
        let page = try written(MapDocument(title: "Zoom", regions: drive.regions, track: drive.track, events: drive.events))
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        let centre = drive.regions[1].center
        for metresPerPixel in [0.07, 0.4, 3.0] {
            let address = URL(string: page.absoluteString + "#center=\(centre.latitude),\(centre.longitude)&mpp=\(metresPerPixel)")!
            let body = try Chromium.bodyAttributes(try Chromium.dumpDOM(of: address))
            let (view, barMetres, barPixels) = try viewAndBar(body)
            #expect(abs(view[1] - centre.latitude) < 1e-7 && abs(view[2] - centre.longitude) < 1e-7, "\(view)")
            // True metres per pixel along the centre's parallel at the page's zoom.
            let perPixel = LocalProjection.metresPerDegreeEast(atLatitude: view[1]) * 360 / (256 * pow(2, view[0]))
            #expect(abs(perPixel - metresPerPixel) < 1e-9 * metresPerPixel, "\(perPixel) m/px at zoom \(view[0])")
            // 600 m between fences, on the centre's parallel, measured with the bar.
            let pixels = WebMercator.pixel(drive.regions[2].center, zoom: view[0]).x
                - WebMercator.pixel(drive.regions[1].center, zoom: view[0]).x
            let measured = pixels * barMetres / barPixels
            #expect(abs(measured - 600) < 0.6, "\(metresPerPixel) m/px: \(measured) m, bar \(barMetres) m \(barPixels) px")
            #expect(Int(body["data-labels"] ?? "") ?? 0 >= 1, "\(body)")
        }
    }

    /// Adds `script` to a written page after its own script, its hash added to the policy.
    static func inject(_ script: String, into page: URL) throws {
        var html = try String(contentsOf: page, encoding: .utf8)
        let hash = Data(SHA256.digest(Array(script.utf8))).base64EncodedString()
        html = html.replacingOccurrences(of: "script-src 'sha256-", with: "script-src 'sha256-\(hash)' 'sha256-")
            .replacingOccurrences(of: "</body>", with: "<script>\(script)</script></body>")
        try html.write(to: page, atomically: true, encoding: .utf8)
    }

    /// Runs in the page after its own script: presses the buttons and a key, hovers a fence (a mouse move over the
    /// map's canvas 20 px east and 50 px south of its centre, clear of the track; Leaflet takes hovers 32 ms apart) and records the view after each
    /// step and the tooltip's text in body[data-interaction].
    private static let interactionScript = """
        (() => {
          const map = window.geofenceMap, body = document.body, out = {};
          const z0 = map.getZoom(), c0 = map.getCenter();
          document.getElementById("zoom-in").click();
          out.zoomIn = map.getZoom() - z0;
          document.getElementById("zoom-out").click();
          out.zoomOut = map.getZoom() - z0;
          map.setView([c0.lat + 0.01, c0.lng + 0.01], z0 + 3);
          document.getElementById("fit").click();
          out.fit = [map.getZoom() - z0, map.getCenter().lat - c0.lat, map.getCenter().lng - c0.lng];
          map.setZoom(z0 + 2);
          dispatchEvent(new KeyboardEvent("keydown", { key: "0" }));
          out.key = map.getZoom() - z0;
          const data = JSON.parse(document.getElementById("map-data").textContent), fence = data.fences;
          const at = map.latLngToContainerPoint([data.origin[0] + fence.y[1] / data.kNorth, data.origin[1] + fence.x[1] / data.kEast]);
          const canvas = document.querySelector(".leaflet-overlay-pane canvas"), r = map.getContainer().getBoundingClientRect();
          setTimeout(() => {
            canvas.dispatchEvent(new MouseEvent("mousemove", { clientX: r.left + at.x + 20, clientY: r.top + at.y + 50, bubbles: true }));
            setTimeout(() => {
              out.tooltip = Array.from(document.querySelectorAll(".leaflet-tooltip")).map(t => t.textContent);
              body.dataset.interaction = JSON.stringify(out);
            }, 100);
          }, 100);
        })();
        """

    @Test("buttons, the 0 key and fit all move the view; hovering a fence shows its tooltip as text")
    func interaction() throws {
        let drive = MapTestData.drive()
        let page = try written(MapDocument(title: "Drive", regions: drive.regions, track: drive.track, events: drive.events))
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        try Self.inject(Self.interactionScript, into: page)
        let body = try Chromium.bodyAttributes(try Chromium.dumpDOM(of: page))
        let json = try #require(body["data-interaction"]?.replacingOccurrences(of: "&quot;", with: "\""), "\(body)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let number = { (key: String) in (result[key] as? Double) ?? .nan }
        #expect(abs(number("zoomIn") - 1) < 1e-9 && abs(number("zoomOut")) < 1e-9, "\(result)")
        let fit = try #require(result["fit"] as? [Double])
        #expect(fit.allSatisfy { abs($0) < 1e-9 }, "fit all returns to the first view: \(fit)")
        #expect(abs(number("key")) < 1e-9, "0 fits all: \(result)")
        let tooltips = try #require(result["tooltip"] as? [String])
        #expect(tooltips.count == 1 && tooltips[0].hasPrefix("stop-2 \u{00b7} radius 150 m \u{00b7} -27.467"),
                "fence tooltip: \(tooltips)")
    }

    /// scripts/tile-server.py on a free loopback port, its request log in `directory`; stopped by `stop()`.
    private struct TileServer {
        static let colour = MapPalette.Color(red: 240, green: 208, blue: 96)
        let process: Process
        let port: Int
        let log: URL

        init(in directory: URL) throws {
            log = directory.appendingPathComponent("tile-requests.log")
            let output = Pipe()
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [Chromium.packageRoot.appendingPathComponent("scripts/tile-server.py").path, log.path,
                                 "--colour", Self.colour.triple]
            process.standardOutput = output
            try process.run()
            // "port N" once it listens; a server that says nothing fails the test (the read ends at its exit).
            var text = ""
            while !text.contains("\n") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            port = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("port ".count)),
                                "tile-server.py said \(text)")
        }

        func stop() -> [String] {
            // SIGKILL: the test runner's blocked signals are inherited, so a SIGTERM may never arrive.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    @Test("with tiles from a loopback server: tiles drawn under fences and track, and only tiles requested")
    func tilesScreenshot() throws {
        let directory = try Chromium.temporaryDirectory("map-tiles")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try TileServer(in: directory)
        var stopped = false
        defer { if !stopped { _ = server.stop() } }
        let drive = MapTestData.drive()
        let tiles = try MapTiles(template: "http://127.0.0.1:\(server.port)/{z}/{x}/{y}.png", attribution: "test tiles")
        let page = directory.appendingPathComponent("map.html")
        try MapDocument(title: "Drive on tiles", regions: drive.regions, track: drive.track, events: drive.events,
                        tiles: tiles).write(to: page.path)
        let tileURL = #"http://127\.0\.0\.1:"# + "\(server.port)" + #"/[0-9]+/[0-9]+/[0-9]+\.png"#
        let result = try Chromium.run(["/usr/bin/python3", Chromium.checkScript, page.path,
                                       "--png", directory.appendingPathComponent("map.png").path,
                                       "--rendered", "fences=3 track=151 events=6",
                                       "--allow-requests", tileURL, "--min-requests", "1", "--min-pixels", "20"]
                                      + paletteArguments + ["--expect", "tile=\(TileServer.colour.triple)"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        print(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        // The tile colour covers most of the map, not a corner: at least a third of the 1200 x 800 screenshot.
        let covered = try #require(result.output.range(of: #"tile [0-9]+ px"#, options: .regularExpression))
        let tilePixels = Int(result.output[covered].dropFirst(5).dropLast(3)) ?? 0
        #expect(tilePixels > 1200 * 800 / 3, "\(tilePixels) tile pixels")
        stopped = true
        let requests = server.stop()
        #expect(!requests.isEmpty && requests.allSatisfy { $0.wholeMatch(of: #/\/[0-9]+\/[0-9]+\/[0-9]+\.png/#) != nil },
                "the tile server was asked for \(requests)")
        let dom = try Chromium.dumpDOM(of: page)
        #expect(dom.contains("Leaflet | test tiles"))
    }

    @Test("12,866 real fences and a 30k-fix track render", .enabled(if: SharedData.isAvailable("pois/seq-stops.txt"), SharedData.skipMessage("pois/seq-stops.txt")))
    func largeScreenshot() throws {
        let regions = try MapTestData.seqStops()
        let track = MapTestData.randomTrack(count: 30_000, through: regions, seed: 5)
        let page = try written(MapDocument(title: "SEQ stops", regions: regions, track: track))
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        let result = try check(page, ["--rendered", "fences=12866 track=30000 events=0", "--expect",
                                      "fence=\(MapPalette.fence.triple)", "--expect",
                                      "track-outside=\(MapPalette.trackOutside.triple)"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        print(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
