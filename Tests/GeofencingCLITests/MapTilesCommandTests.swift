// `geofence map --tiles`: the street layer's template and attribution reach the page, the policy allows images
// from that host only, and a refused template leaves an earlier map as it was.
import Foundation
import GeofencingTestSupport
import Testing

@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct MapTilesCommandTests {
    private static let fences = "id,lat,lon,radius_m\nstop-1,-27.5,153.0,100\n"

    @Test("--tiles for OpenStreetMap: its attribution by default, images from its host only")
    func openStreetMapTiles() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("fences.csv")
        try Self.fences.write(to: fences, atomically: true, encoding: .utf8)
        let page = directory.appendingPathComponent("map.html")
        let outcome = try GeofenceExecutable.run(["map", "--fences", fences.path, "-o", page.path,
                                                  "--tiles", "https://tile.openstreetmap.org/{z}/{x}/{y}.png"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("style-src 'unsafe-inline'; img-src data: https://tile.openstreetmap.org\">"))
        #expect(html.contains(#"{"url":"https://tile.openstreetmap.org/{z}/{x}/{y}.png"}"#))
        #expect(html.contains("Leaflet | \u{00a9} OpenStreetMap contributors</div>"))
    }

    @Test("a refused --tiles names the template and the problem, and the map already written stays as it was")
    func refusedTemplateKeepsMap() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("fences.csv")
        try Self.fences.write(to: fences, atomically: true, encoding: .utf8)
        let page = directory.appendingPathComponent("map.html")
        #expect(try GeofenceExecutable.run(["map", "--fences", fences.path, "-o", page.path]).status == 0)
        let before = try Data(contentsOf: page)
        let refused = try GeofenceExecutable.run(["map", "--fences", fences.path, "-o", page.path,
                                                  "--tiles", "https://x.org/{z}/{x}/{y}.png\"><script>",
                                                  "--tiles-attribution", "X"])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains(#"--tiles "https://x.org/{z}/{x}/{y}.png"><script>": "#)
                && refused.standardError.contains("is not allowed in the path"), "\(refused.standardError)")
        #expect(try Data(contentsOf: page) == before)
    }
}
