// Test support: fences, tracks and events with known layouts, and reading back the data a page embeds.
import Foundation
import Geofencing
import GeofencingEvents
import GeofencingInputs
import GeofencingMap
import GeofencingTestSupport
import Testing

enum MapTestData {
    static let epoch = Date(timeIntervalSince1970: 1_204_583_113)  // 2008-03-03T22:25:13Z
    static let brisbane = Coordinate(latitude: -27.4679357, longitude: 153.0281038)

    /// A coordinate `east`, `north` metres from `origin` (WGS-84 radii of curvature at the origin; the map's own
    /// projection is not used, so the tests do not trust what they check).
    static func offset(_ origin: Coordinate, east: Double, north: Double) -> Coordinate {
        let a = 6_378_137.0, e2 = 0.006_694_379_990_141_317
        let phi = origin.latitude * .pi / 180
        let w = (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        let perDegreeNorth = a * (1 - e2) / (w * w * w) * .pi / 180
        let perDegreeEast = a / w * cos(phi) * .pi / 180
        var longitude = origin.longitude + east / perDegreeEast
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: origin.latitude + north / perDegreeNorth, longitude: longitude)
    }

    /// Three fences west to east and a straight drive through them, 1 fix a second, with the enter and exit events.
    struct Drive {
        var regions: [Region]
        var track: [MapTrackPoint]
        var events: [EventRecord]
    }

    static func drive(origin: Coordinate = brisbane, identifiers: [String] = ["stop-1", "stop-2", "stop-3"]) -> Drive {
        let regions = identifiers.enumerated().map { index, identifier in
            Region(center: offset(origin, east: Double(index) * 600, north: 0), radius: 150,
                           identifier: identifier)
        }
        var track: [MapTrackPoint] = []
        var events: [EventRecord] = []
        var inside: String?
        for second in 0...150 {
            let east = -300 + Double(second) * 12, north = 40.0
            let current = regions.indices.first { index in
                let dx = east - Double(index) * 600
                return (dx * dx + north * north).squareRoot() < 150
            }.map { identifiers[$0] }
            let coordinate = offset(origin, east: east, north: north)
            let time = epoch + Double(second)
            if current != inside {
                if let left = inside {
                    events.append(event(events.count + 1, .exit, left, time, coordinate))
                }
                if let entered = current {
                    events.append(event(events.count + 1, .enter, entered, time, coordinate))
                }
                inside = current
            }
            track.append(MapTrackPoint(coordinate: coordinate, time: time, inside: current != nil))
        }
        return Drive(regions: regions, track: track, events: events)
    }

    static func event(_ sequence: Int, _ kind: EventRecord.Kind, _ region: String, _ time: Date,
                      _ coordinate: Coordinate) -> EventRecord {
        EventRecord(sequence: UInt64(sequence), kind: kind, region: region, time: time,
                    latitude: coordinate.latitude, longitude: coordinate.longitude, distance: kind == .enter ? -2 : 2,
                    state: kind == .enter ? .inside : .outside)
    }

    /// Identifiers that would break out of a script, an attribute or a text node if the page pasted them in.
    static let hostileIdentifiers = [
        "</script><script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "'><svg onload=alert(2)>",
        "<!--<script>",
        "line\u{2028}separator\u{2029}paragraph",
        "back\\slash \"quoted\" &amp; tab\t",
    ]

    /// The JSON text of the page's `<script type="application/json" id="map-data">` element, parsed.
    static func embeddedData(_ html: String) throws -> [String: Any] {
        let open = #"<script type="application/json" id="map-data">"#
        let start = try #require(html.range(of: open), "no map-data element")
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = String(html[start.upperBound..<end.lowerBound])
        return try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// Real fence positions: the GTFS stops of South East Queensland (12,866 stops), radius 100 m. The few columns
    /// needed are read here (quoted names hold commas).
    static func seqStops() throws -> [Region] {
        let text = try String(contentsOf: SharedData.url("pois/seq-stops.txt"), encoding: .utf8)
        var regions: [Region] = []
        for (number, line) in text.split(whereSeparator: \.isNewline).enumerated() where number > 0 {
            var fields: [String] = [], field = "", quoted = false
            for character in line {
                if character == "\"" { quoted.toggle() } else if character == "," && !quoted {
                    fields.append(field)
                    field = ""
                } else { field.append(character) }
            }
            fields.append(field)
            let latitude = try #require(Double(fields[4].trimmingCharacters(in: .whitespaces)), "line \(number + 1)")
            let longitude = try #require(Double(fields[5].trimmingCharacters(in: .whitespaces)), "line \(number + 1)")
            regions.append(Region(center: Coordinate(latitude: latitude, longitude: longitude), radius: 100,
                                          identifier: fields[0]))
        }
        return regions
    }

    /// A wandering track of `count` fixes, 1 s apart, through the area of `regions` (a seeded random walk), with
    /// `inside` from a brute-force test against the regions near the fix.
    static func randomTrack(count: Int, through regions: [Region], seed: UInt64) -> [MapTrackPoint] {
        var random = SplitMix64(seed: seed)
        var position = regions[0].center
        var heading = 0.0
        var track: [MapTrackPoint] = []
        track.reserveCapacity(count)
        // A coarse grid of the regions, so `inside` costs a few comparisons per fix.
        var grid: [Int: [Int]] = [:]
        let cell = { (c: Coordinate) in Int((c.latitude * 100).rounded(.down)) * 100_000 + Int((c.longitude * 100).rounded(.down)) }
        for (index, region) in regions.enumerated() { grid[cell(region.center), default: []].append(index) }
        for second in 0..<count {
            heading += (random.nextUnit() - 0.5) * 0.6
            position = offset(position, east: 14 * sin(heading), north: 14 * cos(heading))
            let near = (-1...1).flatMap { dLat in
                (-1...1).flatMap { dLon in grid[cell(position) + dLat * 100_000 + dLon] ?? [] }
            }
            let inside = near.contains { index in
                let centre = regions[index].center
                let dy = (position.latitude - centre.latitude) * 110_800
                let dx = (position.longitude - centre.longitude) * 111_300 * cos(centre.latitude * .pi / 180)
                let radius: Double = regions[index].radius ?? 0
                return dx * dx + dy * dy < radius * radius
            }
            track.append(MapTrackPoint(coordinate: position, time: epoch + Double(second), inside: inside))
        }
        return track
    }
}

/// Leaflet's Web Mercator (EPSG:3857) in pixels, written out here so the rendering tests know where the page
/// draws a coordinate without asking the page: 256 * 2^zoom pixels round the world, y down from the north.
enum WebMercator {
    static func pixel(_ coordinate: Coordinate, zoom: Double) -> (x: Double, y: Double) {
        let size = 256 * pow(2, zoom)
        let latitude = max(-85.0511287798, min(85.0511287798, coordinate.latitude)) * .pi / 180
        let y = log(tan(.pi / 4 + latitude / 2))
        return (size * (0.5 + coordinate.longitude / 360), size * (0.5 - y / (2 * .pi)))
    }

    /// The view `map.fitBounds(bounds, {padding: [padding, padding]})` gives without zoom snapping: the zoom at which
    /// the box fills the viewport less the padding, and the world pixel at the viewport's centre.
    struct View {
        var zoom: Double
        var centre: (x: Double, y: Double)
        var width: Double, height: Double

        /// The viewport pixel of a coordinate.
        func screen(_ coordinate: Coordinate) -> (x: Int, y: Int) {
            let point = WebMercator.pixel(coordinate, zoom: zoom)
            return (Int((width / 2 + point.x - centre.x).rounded(.down)), Int((height / 2 + point.y - centre.y).rounded(.down)))
        }
    }

    static func fit(south: Double, west: Double, north: Double, east: Double, width: Double, height: Double,
                    padding: Double = 40, maxZoom: Double = 22) -> View {
        let northWest = pixel(Coordinate(latitude: north, longitude: west), zoom: 0)
        let southEast = pixel(Coordinate(latitude: south, longitude: east), zoom: 0)
        let scale = min((width - 2 * padding) / (southEast.x - northWest.x), (height - 2 * padding) / (southEast.y - northWest.y))
        let zoom = min(maxZoom, log2(scale))
        let factor = pow(2, zoom)
        return View(zoom: zoom, centre: ((northWest.x + southEast.x) / 2 * factor, (northWest.y + southEast.y) / 2 * factor),
                    width: width, height: height)
    }

    /// The fit-all view of a page's embedded data (its "bounds" in plane metres, turned back into degrees).
    static func fitAll(_ data: [String: Any], width: Double = 1200, height: Double = 800) throws -> View {
        let bounds = try #require(data["bounds"] as? [Double])
        let origin = try #require(data["origin"] as? [Double])
        let kNorth = try #require(data["kNorth"] as? Double), kEast = try #require(data["kEast"] as? Double)
        return fit(south: origin[0] + bounds[1] / kNorth, west: origin[1] + bounds[0] / kEast,
                   north: origin[0] + bounds[3] / kNorth, east: origin[1] + bounds[2] / kEast, width: width, height: height)
    }
}
