import Geofencing
import GeofencingEvents
import GeofencingInputs

/// Writes regions as a GeoJSON FeatureCollection that `FenceGeoJSONReader` reads back to equal regions (a region
/// read from a file always does; a polygon made in code comes back with its open rings closed and its rings grouped
/// by parts: the same area).
///
/// One feature per line, so that exports diff well. A circle is a Point with `properties.radius`; a polygon a
/// Polygon when its rings group into one part (`FenceRingGrouping`: an outer ring and holes inside it), else a
/// MultiPolygon of its parts, so GIS tools read holes and islands as the monitor does; every ring closed (RFC 7946
/// 3.1.6: an open ring gets its first position again at the end); a corridor a LineString with
/// `properties.half_width_m`. Coordinates are written in each region's source datum, with `properties.datum` on
/// every feature when any region's datum is not WGS-84 (see `FenceFile.geojson`). Strings are escaped by
/// `JSONText.quoted` (U+FEFF included, which JSONSerialization would drop) and otherwise written as UTF-8; numbers
/// in their shortest exact form.
enum FenceGeoJSONWriter {
    static func write(_ regions: [Region]) -> String {
        let namesDatum = regions.contains { $0.sourceDatum != .wgs84 }
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        for (index, region) in regions.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            let identifier = JSONText.quoted(region.identifier)
            text += "{\"type\":\"Feature\",\"id\":\(identifier),\"geometry\":"
            var size = ""
            switch region.sourceShape {
            case .circle(let center, let radius):
                text += "{\"type\":\"Point\",\"coordinates\":"
                append(center, to: &text)
                size = ",\"radius\":\(number(radius))"
            case .polygon(let rings):
                let parts = FenceRingGrouping.parts(rings)
                if parts.count == 1 {
                    text += "{\"type\":\"Polygon\",\"coordinates\":"
                    append(parts[0].map { rings[$0] }, to: &text)
                } else {
                    text += "{\"type\":\"MultiPolygon\",\"coordinates\":["
                    for (index, part) in parts.enumerated() {
                        if index > 0 { text += "," }
                        append(part.map { rings[$0] }, to: &text)
                    }
                    text += "]"
                }
            case .corridor(let path, let halfWidth):
                text += "{\"type\":\"LineString\",\"coordinates\":"
                append(path, to: &text)
                size = ",\"half_width_m\":\(number(halfWidth))"
            }
            text += "},\"properties\":{\"id\":\(identifier)" + size
            if !region.notifyOnEntry { text += ",\"notify_on_entry\":false" }
            if !region.notifyOnExit { text += ",\"notify_on_exit\":false" }
            if let dwellTime = region.dwellTime { text += ",\"dwell_s\":\(number(dwellTime))" }
            if let hysteresis = region.hysteresis { text += ",\"hysteresis_m\":\(number(hysteresis))" }
            if let speedLimit = region.speedLimit {
                text += ",\"speed_limit_kmh\":\(number(speedLimit.limitKilometresPerHour))"
                text += ",\"speed_tolerance_kmh\":\(number(speedLimit.toleranceKilometresPerHour))"
                text += ",\"speed_duration_s\":\(number(speedLimit.duration))"
            }
            if let schedule = region.schedule { text += ",\"schedule\":" + JSONText.quoted(schedule.text) }
            if namesDatum { text += ",\"datum\":\"\(region.sourceDatum.rawValue)\"" }
            text += "}}"
        }
        text += regions.isEmpty ? "]}\n" : "\n]}\n"
        return text
    }

    /// `[[[lon,lat],...],...]`, each ring closed.
    private static func append(_ rings: [[Coordinate]], to text: inout String) {
        text += "["
        for (index, ring) in rings.enumerated() {
            if index > 0 { text += "," }
            if let first = ring.first, ring.last != first {
                append(ring + [first], to: &text)
            } else {
                append(ring, to: &text)
            }
        }
        text += "]"
    }

    /// `[[lon,lat],...]`.
    private static func append(_ positions: [Coordinate], to text: inout String) {
        text += "["
        for (index, position) in positions.enumerated() {
            if index > 0 { text += "," }
            append(position, to: &text)
        }
        text += "]"
    }

    /// `[lon,lat]`.
    private static func append(_ position: Coordinate, to text: inout String) {
        text += "[" + number(position.longitude) + "," + number(position.latitude) + "]"
    }

    /// JSON has no NaN or infinity: such a value (never in a validated region) is written as null, which the reader
    /// refuses with the feature named.
    private static func number(_ value: Double) -> String {
        value.isFinite ? FenceNumber.shortest(value) : "null"
    }
}
