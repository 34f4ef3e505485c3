import Geofencing
import GeofencingEvents
import GeofencingSinks
import GeofencingStore

/// The rows of `geofence fences list`: one CSV line per region, every shape in the same columns.
///
/// `id,shape,lat,lon,radius_m,half_width_m,vertices,state,speed_limit_kmh,schedule`: shape is `circle`, `polygon` or `corridor`; lat,lon
/// the circle's centre or the centre of the bounding box of all the shape's vertices (WGS-84, 7 decimals: 1 cm,
/// as the map places its label); radius_m a circle's
/// radius, half_width_m a corridor's, vertices a polygon's over all rings (a ring's closing vertex, equal to its
/// first, not counted) or a corridor path's; speed_limit_kmh the limit (with `+tolerance/durations` when either is
/// not the default, "50+10/3s"), schedule its text form; a column that does not apply is empty. The listing is for
/// people: the identifier is escaped as `PrintableText.escaped` does (no control character reaches the terminal;
/// a backslash is doubled); `fences export` gives identifiers exactly.
enum RegionListing {
    static let header = "id,shape,lat,lon,radius_m,half_width_m,vertices,state,speed_limit_kmh,schedule\n"

    static func row(_ region: Region, state: RegionState) -> String {
        let kind: String, radius: String, halfWidth: String, vertices: String
        switch region.shape {
        case .circle(_, let r):
            (kind, radius, halfWidth, vertices) = ("circle", JSONText.fixed(r, decimals: 3), "", "")
        case .polygon(let rings):
            let count = rings.reduce(0) { total, ring in
                total + ring.count - (ring.count > 1 && ring.first == ring.last ? 1 : 0)
            }
            (kind, radius, halfWidth, vertices) = ("polygon", "", "", String(count))
        case .corridor(let path, let width):
            (kind, radius, halfWidth, vertices) = ("corridor", "", JSONText.fixed(width, decimals: 3), String(path.count))
        }
        let centre = region.center
        let identifier = CSVText.field(PrintableText.escaped(region.identifier))
        return "\(identifier),\(kind),\(JSONText.fixed(centre.latitude, decimals: 7)),"
            + "\(JSONText.fixed(centre.longitude, decimals: 7)),\(radius),\(halfWidth),\(vertices),"
            + "\(state.rawValue),\(speedLimit(region)),"
            + (region.schedule.map { CSVText.field(PrintableText.escaped($0.text)) } ?? "") + "\n"
    }

    /// The limit in km/h, with "+tolerance/durations" when they are not the defaults ("50", "50+10/3s").
    private static func speedLimit(_ region: Region) -> String {
        guard let limit = region.speedLimit else { return "" }
        var text = JSONText.fixed(limit.limitKilometresPerHour, decimals: 3)
        if limit.toleranceKilometresPerHour != SpeedLimit.defaultToleranceKilometresPerHour
            || limit.duration != SpeedLimit.defaultDuration {
            text += "+" + JSONText.fixed(limit.toleranceKilometresPerHour, decimals: 3) + "/"
                + JSONText.fixed(limit.duration, decimals: 3) + "s"
        }
        return text
    }
}
