// The page's contents: what it embeds, that it is self-contained, and that odd inputs still give a valid page.
import Foundation
import Geofencing
import GeofencingEvents
@testable import GeofencingMap
import GeofencingTestSupport
import Testing

@Suite("Map page contents")
struct MapContentTests {
    @Test("the embedded data holds every fence, fix and event, and the render marker's counts")
    func countsInEmbeddedData() throws {
        let drive = MapTestData.drive()
        let html = MapDocument(title: "Drive", regions: drive.regions, track: drive.track, events: drive.events).html()
        let data = try MapTestData.embeddedData(html)
        let fences = try #require(data["fences"] as? [String: Any])
        #expect(fences["id"] as? [String] == ["stop-1", "stop-2", "stop-3"])
        #expect((fences["r"] as? [Double]) == [150, 150, 150])
        let track = try #require(data["track"] as? [String: Any])
        #expect(track["total"] as? Int == drive.track.count)
        let events = try #require(data["events"] as? [[String: Any]])
        #expect(drive.events.count == 6)  // enter and exit of each of the three fences
        #expect(events.count == drive.events.count)
        #expect(events.map { $0["type"] as? String } == drive.events.map(\.kind.rawValue))
        #expect(events.first?["time"] as? String == ISO8601Time.format(drive.events[0].time))
        #expect(html.contains("3 fences \u{00b7} 151 track fixes"))
    }

    @Test("fence centres in the data are true metres east and north of the data's centre")
    func planeCoordinatesAreMetres() throws {
        let drive = MapTestData.drive()
        let data = try MapTestData.embeddedData(MapDocument(title: "t", regions: drive.regions).html())
        let fences = try #require(data["fences"] as? [String: Any])
        let x = try #require(fences["x"] as? [Double]), y = try #require(fences["y"] as? [Double])
        // Fences 600 m apart along a parallel: 600 m apart in the plane (to 1 cm rounding and the projection's
        // scale, exact at the centre latitude, which all three share).
        #expect(abs((x[1] - x[0]) - 600) < 0.05 && abs((x[2] - x[1]) - 600) < 0.05, "\(x)")
        #expect(abs(x[1]) < 0.05, "the middle fence is the centre: \(x)")
        #expect(y.allSatisfy { abs($0) < 0.05 }, "\(y)")
    }

    /// The page without Leaflet's script element (Leaflet's code names its own URLs, in strings it never fetches).
    private func withoutLeaflet(_ html: String) throws -> String {
        let leaflet = "<script>" + MapPageTemplate.leafletElementText + "</script>"
        try #require(html.components(separatedBy: leaflet).count == 2, "Leaflet's element once, unchanged")
        return html.replacingOccurrences(of: leaflet, with: "")
    }

    @Test("no URL but the SVG namespace outside Leaflet, no external resources, a policy that forbids fetching")
    func selfContained() throws {
        let drive = MapTestData.drive()
        let html = try withoutLeaflet(
            MapDocument(title: "Drive", regions: drive.regions, track: drive.track, events: drive.events).html())
        let pattern = try NSRegularExpression(pattern: #"(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^"' )]*"#)
        let urls = pattern.matches(in: html, range: NSRange(html.startIndex..., in: html))
            .map { String(html[Range($0.range, in: html)!]) }
        #expect(Set(urls) == ["http://www.w3.org/2000/svg"], "\(urls)")
        for resource in [" src=", " href=", "@import", "<link", "<iframe", "fetch(", "XMLHttpRequest"] {
            #expect(!html.contains(resource), "the page contains \(resource)")
        }
        // url( only as a reference inside the page (Leaflet's style: "url(#default#VML)"); its images are gone.
        #expect(html.components(separatedBy: "url(").dropFirst().allSatisfy { $0.hasPrefix("#") })
        #expect(!LeafletLibrary.style.contains("images/"))
        let policy = "default-src 'none'; script-src 'sha256-"
        #expect(html.contains(#"content="\#(policy)"#))
        #expect(html.contains("style-src 'unsafe-inline'; img-src data:\">"), "images: data: only")
        #expect(html.contains(#"<script type="application/json" id="map-tiles">null</script>"#))
        #expect(html.contains(#"<div id="attribution">Leaflet</div>"#))
    }

    @Test("Leaflet is inlined whole with its BSD-2-clause notice, and the policy names both scripts' hashes")
    func leafletInlined() throws {
        let html = MapDocument(title: "t", regions: MapTestData.drive().regions).html()
        #expect(html.contains(MapPageTemplate.leafletElementText))
        #expect(MapPageTemplate.leafletElementText.hasSuffix(LeafletLibrary.script + "\n"))
        #expect(LeafletLibrary.script.count > 100_000 && LeafletLibrary.script.contains("version=\"\(LeafletLibrary.version)\""))
        for phrase in ["Leaflet \(LeafletLibrary.version)", "Vladimir Agafonkin", "CloudMade",
                       "Redistributions in binary form must reproduce the above copyright",
                       "THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS"] {
            #expect(html.contains(phrase), "the page lacks \(phrase)")
        }
        for text in [MapPageTemplate.leafletElementText, MapPageTemplate.scriptElementText] {
            let hash = Data(SHA256.digest(Array(text.utf8))).base64EncodedString()
            #expect(html.contains("'sha256-\(hash)'"))
        }
        #expect(html.components(separatedBy: "'sha256-").count - 1 == 2, "exactly two scripts may run")
    }

    @Test("with tiles: images from the tile host and data: only, the template as data, the attribution as text")
    func tilesPolicy() throws {
        let drive = MapTestData.drive()
        let tiles = try MapTiles(template: "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        #expect(tiles.attribution == "\u{00a9} OpenStreetMap contributors" && tiles.source == "https://tile.openstreetmap.org")
        let html = MapDocument(title: "Drive", regions: drive.regions, tiles: tiles).html()
        #expect(html.contains("style-src 'unsafe-inline'; img-src data: https://tile.openstreetmap.org\">"))
        #expect(html.contains(#"<script type="application/json" id="map-tiles">{"url":"https://tile.openstreetmap.org/{z}/{x}/{y}.png"}</script>"#))
        #expect(html.contains("<div id=\"attribution\">Leaflet | \u{00a9} OpenStreetMap contributors</div>"))

        let hostile = try MapTiles(template: "http://127.0.0.1:8080/{z}/{x}/{y}.png?a=1&b=2",
                                   attribution: "<img src=x onerror=alert(1)> & \"co\"")
        let page = MapDocument(title: "t", regions: drive.regions, tiles: hostile).html()
        #expect(page.contains("img-src data: http://127.0.0.1:8080\">"))
        #expect(page.contains("Leaflet | &lt;img src=x onerror=alert(1)&gt; &amp; \"co\"</div>"))
        #expect(page.contains(#"{"url":"http://127.0.0.1:8080/{z}/{x}/{y}.png?a=1\u0026b=2"}"#))
        #expect(!page.contains("<img"))
    }

    @Test("tile templates: good ones give their policy source, bad ones an error that says what is wrong", arguments: [
        ("https://tile.openstreetmap.org/{z}/{x}/{y}.png", "https://tile.openstreetmap.org"),
        ("https://{s}.tile.example.org/{z}/{x}/{y}{r}.png", "https://*.tile.example.org"),
        ("http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png?key=abc", "http://127.0.0.1:8080"),
        ("HTTP://x/{z}/{x}/{y}", "want an http:// or https:// URL"),
        ("ftp://tile.openstreetmap.org/{z}/{x}/{y}.png", "want an http:// or https:// URL"),
        ("javascript:alert(1)//{z}/{x}/{y}", "want an http:// or https:// URL"),
        ("https://tile.openstreetmap.org/{z}/{x}.png", "{y} is missing"),
        ("https://tile.openstreetmap.org/{z}/{x}/{y}/{q}.png", "unknown placeholder {q}"),
        ("https://user@tile.openstreetmap.org/{z}/{x}/{y}.png", "is not a host name"),
        ("https://tile.open street.org/{z}/{x}/{y}.png", "is not a host name"),
        ("https://tile.openstreetmap.org:99999/{z}/{x}/{y}.png", "is not a number in 1 ... 65535"),
        ("https://tile.openstreetmap.org/{z}/{x}/{y}.png\"><script>", "is not allowed in the path"),
        ("https://tile.openstreetmap.org/{z}/{x}/{y", "without"),
        ("https://tiles.example.org/{z}/{x}/{y}.png", "need their attribution text (--tiles-attribution)"),
    ])
    func tileTemplates(template: String, expected: String) {
        do throws(MapTilesError) {
            let tiles = try MapTiles(template: template, attribution: expected.hasPrefix("need") ? nil : "Example")
            #expect(tiles.source == expected, "\(template)")
        } catch {
            #expect(error.template == template && error.problem.contains(expected), "\(template): \(error)")
            #expect(error.description.hasPrefix("tiles \"\(template)\": "))
        }
    }

    @Test("a page with no track and no events, and one with nothing at all, are valid")
    func emptyInputs() throws {
        let drive = MapTestData.drive()
        for document in [MapDocument(title: "Fences only", regions: drive.regions),
                         MapDocument(title: "Nothing", regions: [])] {
            let data = try MapTestData.embeddedData(document.html())
            let track = try #require(data["track"] as? [String: Any])
            #expect(track["total"] as? Int == 0)
            #expect((track["x"] as? [Any])?.isEmpty == true)
            #expect(track["t0"] is NSNull)
            #expect((data["events"] as? [Any])?.isEmpty == true)
            let bounds = try #require(data["bounds"] as? [Double])
            #expect(bounds[2] > bounds[0] && bounds[3] > bounds[1], "an empty view still has a size: \(bounds)")
        }
    }

    @Test("fences and tracks across the antimeridian are centred on 180° and stay together")
    func antimeridian() throws {
        let origin = Coordinate(latitude: -16.5, longitude: 179.999)  // Fiji, where the antimeridian crosses land
        let drive = MapTestData.drive(origin: origin)
        #expect(drive.regions.contains { $0.center.longitude < 0 } && drive.regions.contains { $0.center.longitude > 0 })
        let html = MapDocument(title: "Fiji", regions: drive.regions, track: drive.track, events: drive.events).html()
        let data = try MapTestData.embeddedData(html)
        let centre = try #require(data["origin"] as? [Double])
        #expect(abs(abs(centre[1]) - 180) < 0.02, "centre longitude \(centre[1])")
        let fences = try #require(data["fences"] as? [String: Any])
        let x = try #require(fences["x"] as? [Double])
        #expect(abs((x[2] - x[0]) - 1200) < 0.05, "fences 600 m apart stay 600 m apart: \(x)")
        let bounds = try #require(data["bounds"] as? [Double])
        #expect(bounds[2] - bounds[0] < 3000, "the view is a few km wide, not the globe: \(bounds)")
        let track = try #require(data["track"] as? [String: Any])
        let trackX = try #require(track["x"] as? [Double])
        #expect(zip(trackX, trackX.dropFirst()).allSatisfy { abs($1 - $0) < 100 }, "no jump across the map")
    }

    @Test("invalid coordinates and radii are left out and counted, not drawn at (0, 0)")
    func invalidInputsSkipped() throws {
        var drive = MapTestData.drive()
        drive.regions.append(Region(center: Coordinate(latitude: .nan, longitude: 0), radius: 10, identifier: "nan"))
        drive.regions.append(Region(center: MapTestData.brisbane, radius: .infinity, identifier: "inf"))
        drive.track.append(MapTrackPoint(coordinate: Coordinate(latitude: 95, longitude: 0), inside: false))
        let data = try MapTestData.embeddedData(MapDocument(title: "t", regions: drive.regions, track: drive.track).html())
        let skipped = try #require(data["skipped"] as? [String: Int])
        #expect(skipped == ["fences": 2, "track": 1, "events": 0])
        #expect((data["fences"] as? [String: Any])?["id"] as? [String] == ["stop-1", "stop-2", "stop-3"])
    }

    @Test("12,866 real fences and a 30k-fix track stay under 2 MB, Leaflet included", .enabled(if: SharedData.isAvailable("pois/seq-stops.txt"), SharedData.skipMessage("pois/seq-stops.txt")))
    func largePageSize() throws {
        let regions = try MapTestData.seqStops()
        #expect(regions.count == 12_866)
        let track = MapTestData.randomTrack(count: 30_000, through: regions, seed: 5)
        let html = MapDocument(title: "SEQ stops", regions: regions, track: track).html()
        let size = html.utf8.count
        #expect(size <= 2_000_000, "page of \(size) bytes")
        let data = try MapTestData.embeddedData(html)
        #expect(((data["fences"] as? [String: Any])?["id"] as? [String])?.count == 12_866)
        let drawn = ((data["track"] as? [String: Any])?["x"] as? [Double])?.count ?? 0
        print("map page for \(regions.count) fences and \(track.count) fixes: \(size) bytes, \(drawn) fixes drawn")
    }
}
