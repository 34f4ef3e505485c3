import CGeofence

/// A region's shape as the core takes it: e7 integers, checked. Made only by `validate(_:)`, so every value is one
/// the core accepts (apart from running out of memory or capacity).
enum CoreShape {
    case circle(center: gf_point, radiusMillimetres: UInt32)
    /// Vertices of all rings in order; ring i ends (exclusive) at `ringEnds[i]`. Closing vertices removed.
    case polygon(vertices: [gf_point], ringEnds: [UInt32])
    case corridor(path: [gf_point], halfWidthMillimetres: UInt32)

    /// The most vertices one shape may have (the core's GF_SHAPE_VERTICES_MAX).
    static let maximumVertices = Int(GF_SHAPE_VERTICES_MAX)

    /// The core's form of `shape`, or why it is invalid. Mirrors the core's own checks so that the message names
    /// the ring and vertex at fault (the core only says "GF_ERR_SHAPE"); a polygon's rings must also form a valid
    /// ring set (`RingSet`: none of zero area, none meeting another or itself), so that the even-odd rule means
    /// what the rings say.
    static func validate(_ shape: RegionShape) throws(RegionMonitorError) -> CoreShape {
        switch shape {
        case .circle(let center, let radius):
            guard center.isValid, abs(center.latitude) <= 85, let point = CoreFenceTable.point(center) else {
                throw .invalidCenter(center)
            }
            return .circle(center: point, radiusMillimetres: try millimetres(radius))
        case .polygon(let rings):
            let (vertices, ringEnds) = try polygonPoints(rings)
            // A valid ring set: no zero-area ring, no rings that meet, no crowd of edges the core would refuse.
            do {
                _ = try RingSet.nesting(vertices: vertices, ringEnds: ringEnds)
            } catch {
                throw .invalidShape(error.description)
            }
            return .polygon(vertices: vertices, ringEnds: ringEnds)
        case .corridor(let path, let halfWidth):
            let points = try points(path, what: "the path")
            guard points.count >= 2 else { throw .invalidShape("a corridor's path needs at least 2 vertices") }
            guard points.count <= maximumVertices else { throw tooManyVertices(points.count) }
            let halfWidthMillimetres = try millimetres(halfWidth)
            try checkLongitudeSpan(points)
            return .corridor(path: points, halfWidthMillimetres: halfWidthMillimetres)
        }
    }

    /// A polygon's rings as the core's e7 vertices and ring ends (closing vertices removed), checked vertex by vertex
    /// and for the longitude span; not yet for validity as a ring set (`RingSet`).
    static func polygonPoints(_ rings: [[Coordinate]]) throws(RegionMonitorError) -> ([gf_point], [UInt32]) {
        guard !rings.isEmpty else { throw .invalidShape("a polygon needs at least one ring") }
        var vertices: [gf_point] = []
        var ringEnds: [UInt32] = []
        for (ringIndex, ring) in rings.enumerated() {
            var points = try points(ring, what: "ring \(ringIndex + 1)")
            if points.count > 1, let first = points.first, let last = points.last, first.lat == last.lat, first.lon == last.lon {
                points.removeLast()
            }
            guard points.count >= 3 else {
                throw .invalidShape("ring \(ringIndex + 1) has \(points.count) distinct vertices; a ring needs 3")
            }
            vertices += points
            guard vertices.count <= maximumVertices else {
                throw tooManyVertices(rings.reduce(0) { $0 + $1.count })
            }
            ringEnds.append(UInt32(vertices.count))
        }
        try checkLongitudeSpan(vertices)
        return (vertices, ringEnds)
    }

    /// A radius or half-width in whole millimetres, 1 m ... 50 km.
    private static func millimetres(_ metres: Double) throws(RegionMonitorError) -> UInt32 {
        guard metres.isFinite, metres >= 1, metres <= RegionMonitor.maximumRegionMonitoringDistance else {
            throw .invalidRadius(metres)
        }
        return UInt32((metres * 1000).rounded())
    }

    private static func points(_ coordinates: [Coordinate], what: String) throws(RegionMonitorError) -> [gf_point] {
        var points: [gf_point] = []
        points.reserveCapacity(coordinates.count)
        for (index, coordinate) in coordinates.enumerated() {
            guard coordinate.isValid, abs(coordinate.latitude) <= 85, let point = CoreFenceTable.point(coordinate) else {
                throw .invalidShape("vertex \(index + 1) of \(what), \(coordinate), is not a valid coordinate within "
                    + "85 degrees of latitude")
            }
            points.append(point)
        }
        return points
    }

    /// The core's shapes may not cross +-180 degrees nor span more than 180 degrees of longitude (their edges are
    /// straight in longitude, so an edge from 179 to -179 would go the long way round). A corridor's half-width is
    /// checked by the core, which knows its latitude scale.
    private static func checkLongitudeSpan(_ points: [gf_point]) throws(RegionMonitorError) {
        var west = Int32.max, east = Int32.min
        for point in points {
            west = min(west, point.lon)
            east = max(east, point.lon)
        }
        guard Int64(east) - Int64(west) <= 1_800_000_000 else {
            throw .invalidShape("it spans more than 180 degrees of longitude (shapes across +-180 degrees are not "
                + "supported: split them there)")
        }
    }

    private static func tooManyVertices(_ count: Int) -> RegionMonitorError {
        .invalidShape("\(count) vertices; at most \(maximumVertices)")
    }
}
