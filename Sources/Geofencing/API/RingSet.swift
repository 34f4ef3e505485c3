import CGeofence

/// Why a polygon's rings are not a valid ring set (the core's `gf_polygon_check`). Rings are numbered from 0, in the
/// order given.
public enum RingSetProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The ring encloses no area: fewer than 3 distinct corners, or all of them on one line.
    case zeroArea(ring: Int)
    /// Two rings cross or share part of an edge near a point, or one ring (`ring == otherRing`) meets itself there.
    case crossing(ring: Int, otherRing: Int, near: Coordinate)
    /// More than `RingSet.maximumEdgesPerCell` edges crowd together near a point (a star of edges meeting there,
    /// rings on top of each other, very many long edges side by side): refused so that a query's work stays bounded.
    case dense(near: Coordinate)
    /// Not a polygon the core takes at all (a ring of fewer than 3 vertices, an invalid vertex, across ±180°): why.
    case unusable(String)

    /// The problem in words, rings numbered from 1 (as the monitor's other messages number them).
    public var description: String {
        switch self {
        case .zeroArea(let ring):
            "ring \(ring + 1) encloses no area (fewer than 3 distinct corners, or all of them on one line)"
        case .crossing(let ring, let other, let point) where ring == other:
            "ring \(ring + 1) crosses or touches itself near \(point)"
        case .crossing(let ring, let other, let point):
            "rings \(ring + 1) and \(other + 1) cross or share part of an edge near \(point) (rings may touch at "
                + "single points only)"
        case .dense(let point):
            "more than \(RingSet.maximumEdgesPerCell) edges crowd together near \(point) (the core refuses such "
                + "shapes so that the work of a query stays bounded)"
        case .unusable(let reason): reason
        }
    }
}

/// A polygon's rings as a GeoJSON (RFC 7946) or OGC simple-features reader means them, checked by the core: every
/// ring encloses an area, no ring meets itself, and two rings touch at most at single points without crossing, so
/// that the core's even-odd rule over all rings is exactly the union of the parts with each hole taken from the ring
/// around it. Then the rings nest:
/// each ring's innermost container, which a reader knowing the declared structure (this ring is a hole of that one)
/// compares with what it was told.
public enum RingSet {
    /// The most edges one cell of a shape's edge grid lists (the core's GF_SHAPE_CELL_EDGES_MAX): what bounds the
    /// work of a query on any shape.
    public static let maximumEdgesPerCell = Int(GF_SHAPE_CELL_EDGES_MAX)

    /// For each ring, the index of the innermost other ring containing it (nil: none), or why the rings are not a
    /// valid ring set. Rings may be closed (the first position repeated at the end) or not.
    public static func nesting(_ rings: [[Coordinate]]) throws(RingSetProblem) -> [Int?] {
        let points: (vertices: [gf_point], ringEnds: [UInt32])
        do {
            points = try CoreShape.polygonPoints(rings)
        } catch {
            throw .unusable(error.description)
        }
        return try nesting(vertices: points.vertices, ringEnds: points.ringEnds)
    }

    /// The core's check on e7 points (ring i ends, exclusive, at ringEnds[i]).
    static func nesting(vertices: [gf_point], ringEnds: [UInt32]) throws(RingSetProblem) -> [Int?] {
        var parents = [UInt32](repeating: GF_RING_NONE, count: ringEnds.count)
        var problem = gf_shape_problem()
        let status = gf_polygon_check(vertices, ringEnds, UInt32(ringEnds.count), &parents, &problem)
        if status == GF_OK { return parents.map { $0 == GF_RING_NONE ? nil : Int($0) } }
        var latitude = 0.0, longitude = 0.0
        gf_point_to_degrees(problem.at, &latitude, &longitude)
        let near = Coordinate(latitude: latitude, longitude: longitude)
        switch problem.fault {
        case GF_SHAPE_FAULT_ZERO_AREA: throw .zeroArea(ring: Int(problem.ring))
        case GF_SHAPE_FAULT_CROSSING:
            throw .crossing(ring: Int(problem.ring), otherRing: Int(problem.other_ring), near: near)
        case GF_SHAPE_FAULT_DENSE: throw .dense(near: near)
        case GF_SHAPE_FAULT_SPAN:
            throw .unusable("it spans more than 180 degrees of longitude (shapes across +-180 degrees are not "
                + "supported: split them there)")
        default: throw .unusable(String(cString: gf_status_message(status)))
        }
    }
}
