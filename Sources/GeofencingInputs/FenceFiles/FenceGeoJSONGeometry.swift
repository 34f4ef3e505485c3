import Geofencing

/// The shape of one GeoJSON fence feature, as written (in the feature's datum; the caller converts to WGS-84).
///
/// - `Point` + `properties.radius` (or `radius_m`), metres: a circle.
/// - `Polygon`: ring 0 the outer boundary, the others holes.
/// - `MultiPolygon`: every ring of every part, in order, as the rings of one polygon region (inside by the even-odd
///   rule over all rings, so the parts must not overlap; an island in a lake is a part of its own).
/// Both are checked against what they declare (`FenceRingStructure`: no ring of zero area, no rings that meet, each
/// hole directly inside its own outer ring, no overlapping parts), so that the even-odd rule means what GeoJSON does.
/// - `LineString` + `properties.half_width_m` (metres either side of the line), or `properties.width_m` (the full
///   width, as a road is described; the half-width is half of it; not both): a corridor.
///
/// Positions are [longitude, latitude] (an altitude after them is ignored), each checked to ±180° / ±85°. A ring
/// needs at least 4 positions (3 corners and the first again at the end, RFC 7946 3.1.6); a ring left open (last
/// position not the first) is accepted and closed by repeating its first position, so that a region read from a file
/// always has closed rings and writes back as the file gave it. A polygon's rings stay in the file's order (parts,
/// each its outer ring then its holes), which is the order `FenceRingGrouping` writes them back in.
/// Errors name the member: `geometry.coordinates[1][3]` is ring 1, position 3 (0-based, as in the file).
/// `properties.radius` of a Polygon or LineString feature, like any other property, is ignored.
enum FenceGeoJSONGeometry {
    typealias Fail = (String?, String) -> FenceFileError

    static func shape(_ json: FenceJSONValue?, properties: FenceJSONObject, fail: Fail) throws(FenceFileError) -> RegionShape {
        guard let geometry = json?.object else {
            guard let json, !json.isNull else {
                throw fail("geometry", "missing: a fence needs a geometry (Point, Polygon, MultiPolygon or LineString)")
            }
            throw fail("geometry", "is \(json.kind), not a geometry object")
        }
        let coordinates = geometry["coordinates"]
        switch geometry["type"]?.string {
        case "Point":
            return .circle(center: try point(coordinates, fail: fail), radius: try radius(properties, fail: fail))
        case "Polygon", "MultiPolygon":
            let multi = geometry["type"]?.string == "MultiPolygon"
            let polygons = multi ? try multiPolygon(coordinates, fail: fail)
                : [try polygon(coordinates, member: "geometry.coordinates", fail: fail)]
            return .polygon(rings: try FenceRingStructure.rings(polygons, multi: multi, fail: fail))
        case "LineString":
            let path = try positions(coordinates, member: "geometry.coordinates", fail: fail)
            guard path.count >= 2 else {
                throw fail("geometry.coordinates", "has \(path.count) position(s); a LineString needs at least 2")
            }
            return .corridor(path: path, halfWidth: try halfWidth(properties, fail: fail))
        case let type? where ["MultiLineString", "MultiPoint", "GeometryCollection"].contains(type):
            throw fail("geometry.type", "\(type) geometries are not read: give each part as a feature of its own "
                + "(Point with properties.radius, Polygon, MultiPolygon, or LineString with properties.half_width_m)")
        default:
            throw fail("geometry.type", "is \(FenceJSONValue.describe(geometry["type"])), not a GeoJSON geometry type")
        }
    }

    // MARK: - Coordinates

    /// A Point's [longitude, latitude], range-checked.
    private static func point(_ json: FenceJSONValue?, fail: Fail) throws(FenceFileError) -> Coordinate {
        try position(json, member: "geometry.coordinates", fail: fail)
    }

    /// A MultiPolygon's polygons, each its rings.
    private static func multiPolygon(_ json: FenceJSONValue?, fail: Fail) throws(FenceFileError) -> [[[Coordinate]]] {
        let parts = try array(json, member: "geometry.coordinates", fail: fail, what: "an array of polygons")
        guard !parts.isEmpty else {
            throw fail("geometry.coordinates", "is an empty array: a MultiPolygon needs at least one polygon")
        }
        var polygons: [[[Coordinate]]] = []
        for (index, part) in parts.enumerated() {
            polygons.append(try polygon(part, member: "geometry.coordinates[\(index)]", fail: fail))
        }
        return polygons
    }

    /// A polygon's rings (member: the path of its array of rings).
    private static func polygon(_ json: FenceJSONValue?, member: String, fail: Fail) throws(FenceFileError) -> [[Coordinate]] {
        let rings = try array(json, member: member, fail: fail, what: "an array of rings")
        guard !rings.isEmpty else { throw fail(member, "is an empty array: a polygon needs at least its outer ring") }
        var result: [[Coordinate]] = []
        result.reserveCapacity(rings.count)
        for (index, ring) in rings.enumerated() {
            let ringMember = "\(member)[\(index)]"
            var positions = try positions(ring, member: ringMember, fail: fail)
            let given = positions.count
            if let first = positions.first, positions.last != first { positions.append(first) }
            guard positions.count >= 4 else {
                throw fail(ringMember, "is a ring of \(given) position\(given == 1 ? "" : "s"); a ring needs at least 4 "
                    + "(3 corners and the first again at the end)")
            }
            result.append(positions)
        }
        return result
    }

    /// An array of positions (a ring or a line).
    private static func positions(_ json: FenceJSONValue?, member: String, fail: Fail) throws(FenceFileError) -> [Coordinate] {
        let items = try array(json, member: member, fail: fail, what: "an array of [longitude, latitude] positions")
        var positions: [Coordinate] = []
        positions.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            positions.append(try position(item, member: "\(member)[\(index)]", fail: fail))
        }
        return positions
    }

    /// One [longitude, latitude] (an altitude after them is ignored), range-checked.
    private static func position(_ json: FenceJSONValue?, member: String, fail: Fail) throws(FenceFileError) -> Coordinate {
        guard let pair = json?.array, (2...3).contains(pair.count),
              let longitude = pair[0].number, let latitude = pair[1].number
        else {
            throw fail(member, "is \(FenceJSONValue.describe(json)), not a [longitude, latitude] pair in degrees")
        }
        do {
            try FenceValidation.longitude(longitude)
            try FenceValidation.latitude(latitude)
        } catch {
            throw fail(member, error.message)
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    private static func array(
        _ json: FenceJSONValue?, member: String, fail: Fail, what: String
    ) throws(FenceFileError) -> [FenceJSONValue] {
        guard let items = json?.array else { throw fail(member, "is \(FenceJSONValue.describe(json)), not \(what)") }
        return items
    }

    // MARK: - Sizes

    /// A circle's radius: `properties.radius` wins over `properties.radius_m` when both are given.
    private static func radius(_ properties: FenceJSONObject, fail: Fail) throws(FenceFileError) -> Double {
        guard let (key, value) = property(["radius", "radius_m"], in: properties) else {
            throw fail("properties.radius", "missing: a Point fence needs its radius in metres "
                + "(properties.radius or properties.radius_m)")
        }
        let field = "properties." + key
        guard let radius = value.number else {
            throw fail(field, "is \(FenceJSONValue.describe(value)), not a number of metres")
        }
        do { try FenceValidation.radius(radius) } catch { throw fail(field, error.message) }
        return radius
    }

    /// A corridor's half-width: `properties.half_width_m`, or half of `properties.width_m`.
    private static func halfWidth(_ properties: FenceJSONObject, fail: Fail) throws(FenceFileError) -> Double {
        let half = property(["half_width_m"], in: properties)
        let full = property(["width_m"], in: properties)
        if half != nil, full != nil {
            throw fail("properties.width_m", "given together with properties.half_width_m: give one of them "
                + "(half_width_m is the distance either side of the line, width_m the full width)")
        }
        guard let (key, value) = half ?? full else {
            throw fail("properties.half_width_m", "missing: a LineString fence needs its half-width in metres "
                + "(properties.half_width_m, the distance either side of the line, or properties.width_m, the full "
                + "width)")
        }
        let field = "properties." + key
        guard let number = value.number else {
            throw fail(field, "is \(FenceJSONValue.describe(value)), not a number of metres")
        }
        let halfWidth = key == "width_m" ? number / 2 : number
        do {
            try FenceValidation.halfWidth(halfWidth)
        } catch {
            throw fail(field, key == "width_m" ? "width \(FenceNumber.shortest(number)) m: " + error.message
                : error.message)
        }
        return halfWidth
    }

    /// The first of `keys` present and not null in `properties`.
    private static func property(
        _ keys: [String], in properties: FenceJSONObject
    ) -> (key: String, value: FenceJSONValue)? {
        for key in keys {
            if let value = properties[key], !value.isNull { return (key, value) }
        }
        return nil
    }
}
