// The page in a real browser: headless Chromium draws it, scripts/check-map-screenshot.py decodes the screenshot
// and looks for the map's colours, and the DOM after rendering shows what the script drew.
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
        #expect(dom.components(separatedBy: "<script").count - 1 == 2)
        for element in ["<img", "<svg onload"] {
            #expect(!dom.contains(element), "the DOM has \(element)")
        }
        #expect(dom.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), "the identifier shows as text")
    }

    @Test("the scale bar is true: fences a known distance apart measure that distance with it", arguments: [1.0, 40.0])
    func scaleBarIsTrue(spacingKilometres: Double) throws {
        let origin = Coordinate(latitude: -27.4679357, longitude: 153.0281038)
        let regions = (0...2).map { index in
            Region(center: MapTestData.offset(origin, east: Double(index) * spacingKilometres * 1000, north: 0),
                           radius: 100, identifier: "f\(index)")
        }
        let document = MapDocument(title: "Scale", regions: regions)
        let page = try written(document)
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        let body = try Chromium.bodyAttributes(try Chromium.dumpDOM(of: page))
        let view = try #require(body["data-view"]?.split(separator: " ").compactMap { Double($0) }, "\(body)")
        let bar = try #require(body["data-scale-bar"]?.split(separator: " "), "\(body)")
        let barMetres = try #require(Double(bar[0])), barPixels = try #require(Double(bar[2]))
        let x = try #require((try MapTestData.embeddedData(document.html())["fences"] as? [String: Any])?["x"] as? [Double])
        let measured = (x[2] - x[0]) * view[0] * barMetres / barPixels
        let truth = 2 * spacingKilometres * 1000
        #expect(abs(measured - truth) < truth * 0.001, "measured \(measured) m with the bar, truth \(truth) m")
        #expect(barPixels > 40 && barPixels <= 120, "\(bar)")
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

    @Test("zoomed in through the address: the scale bar stays true and the fences get labels")
    func zoomedView() throws {
        let drive = MapTestData.drive()
        let document = MapDocument(title: "Zoom", regions: drive.regions, track: drive.track, events: drive.events)
        let page = try written(document)
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        let x = try #require((try MapTestData.embeddedData(document.html())["fences"] as? [String: Any])?["x"] as? [Double])
        for metresPerPixel in [0.07, 0.4, 3.0] {
            let centre = drive.regions[1].center
            let address = URL(string: page.absoluteString + "#center=\(centre.latitude),\(centre.longitude)&mpp=\(metresPerPixel)")!
            let body = try Chromium.bodyAttributes(try Chromium.dumpDOM(of: address))
            let view = try #require(body["data-view"]?.split(separator: " ").compactMap { Double($0) }, "\(body)")
            #expect(abs(view[0] - 1 / metresPerPixel) < 1e-9 / metresPerPixel, "scale \(view[0])")
            // The middle fence is at the centre of the view.
            #expect(abs(view[1] + view[0] * x[1] - view[3] / 2) < 0.5, "\(view)")
            let bar = try #require(body["data-scale-bar"]?.split(separator: " "), "\(body)")
            let barMetres = try #require(Double(bar[0])), barPixels = try #require(Double(bar[2]))
            // 600 m between fences, on the centre's parallel, measured with the bar.
            let measured = (x[2] - x[1]) * view[0] * barMetres / barPixels
            #expect(abs(measured - 600) < 0.6, "\(metresPerPixel) m/px: \(measured) m, bar \(bar)")
            #expect(Int(body["data-labels"] ?? "") ?? 0 >= 1, "\(body)")
        }
    }

    /// Runs in the page after its own script (allowed by adding its hash to the policy): presses the buttons,
    /// turns the wheel and drags, and records the view after each step in body[data-interaction].
    private static let interactionScript = """
        (() => {
          const svg = document.getElementById("map"), body = document.body, out = {};
          const view = () => body.dataset.view.split(" ").map(Number);
          const v0 = view();
          document.getElementById("zoom-in").click();
          out.zoomIn = view()[0] / v0[0];
          document.getElementById("zoom-out").click();
          out.zoomOut = view()[0] / v0[0];
          svg.dispatchEvent(new WheelEvent("wheel", { deltaY: -300, clientX: 300, clientY: 200, bubbles: true, cancelable: true }));
          const v1 = view();
          out.wheel = v1[0] / v0[0];
          const x = (300 - v0[1]) / v0[0], y = (v0[2] - 200) / v0[0];  // the plane point under the cursor
          out.wheelDriftPx = Math.hypot(v1[1] + v1[0] * x - 300, v1[2] - v1[0] * y - 200);
          const pointer = (type, x, y) => svg.dispatchEvent(new PointerEvent(type, { button: 0, clientX: x, clientY: y, pointerId: 7, bubbles: true }));
          pointer("pointerdown", 500, 400);
          pointer("pointermove", 540, 380);
          pointer("pointermove", 560, 370);
          pointer("pointerup", 560, 370);
          const v2 = view();
          out.panX = v2[1] - v1[1];
          out.panY = v2[2] - v1[2];
          document.getElementById("fit").click();
          const v3 = view();
          out.fit = [v3[0] / v0[0], v3[1] - v0[1], v3[2] - v0[2]];
          const fence = document.querySelector("#fences ellipse:nth-child(2)");
          fence.dispatchEvent(new PointerEvent("pointerover", { bubbles: true }));
          out.tooltip = fence.textContent;
          body.dataset.interaction = JSON.stringify(out);
        })();
        """

    @Test("pan and zoom: +/- buttons, the wheel about the cursor, dragging, and fit all")
    func interaction() throws {
        let drive = MapTestData.drive()
        let page = try written(MapDocument(title: "Drive", regions: drive.regions, track: drive.track, events: drive.events))
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        var html = try String(contentsOf: page, encoding: .utf8)
        let hash = Data(SHA256.digest(Array(Self.interactionScript.utf8))).base64EncodedString()
        html = html.replacingOccurrences(of: "script-src 'sha256-", with: "script-src 'sha256-\(hash)' 'sha256-")
            .replacingOccurrences(of: "</body>", with: "<script>\(Self.interactionScript)</script></body>")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let body = try Chromium.bodyAttributes(try Chromium.dumpDOM(of: page))
        let json = try #require(body["data-interaction"]?.replacingOccurrences(of: "&quot;", with: "\""), "\(body)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let number = { (key: String) in (result[key] as? Double) ?? .nan }
        #expect(abs(number("zoomIn") - 2) < 1e-9 && abs(number("zoomOut") - 1) < 1e-9, "\(result)")
        #expect(abs(number("wheel") - exp(0.6)) < 1e-6, "\(result)")
        // The plane point under the cursor stays under it (to a thousandth of a pixel).
        #expect(number("wheelDriftPx") < 1e-6, "\(result)")
        #expect(abs(number("panX") - 60) < 1e-9 && abs(number("panY") + 30) < 1e-9, "\(result)")
        let tooltip = try #require(result["tooltip"] as? String)
        #expect(tooltip.hasPrefix("stop-2 \u{00b7} radius 150 m \u{00b7} -27.467"), "fence tooltip: \(tooltip)")
        let fit = try #require(result["fit"] as? [Double])
        #expect(abs(fit[0] - 1) < 1e-9 && abs(fit[1]) < 1e-6 && abs(fit[2]) < 1e-6, "fit all returns to the first view: \(fit)")
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
