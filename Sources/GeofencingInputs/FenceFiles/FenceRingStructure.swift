import Geofencing

/// A GeoJSON Polygon's or MultiPolygon's rings checked against what they declare, before they become one
/// `RegionShape.polygon` (which the core decides by the even-odd rule over all rings).
///
/// GeoJSON (RFC 7946) means a MultiPolygon as the union of its polygons, and a hole as taken from its own outer ring
/// only. The even-odd rule means exactly that when the rings are valid (`RingSet`: every ring encloses an area, no two
/// cross, none meets itself, two touch at single points at most) and nest as declared: each hole directly inside its own outer ring (not outside it, not inside another of its
/// holes), and each outer ring outside every other polygon (or inside one of its holes: an island in a lake). Anything
/// else is refused with the member at fault rather than answered differently from what the file means.
/// Members are named as in the file, 0-based: `geometry.coordinates[1]` is a Polygon's ring 1 (its first hole),
/// `geometry.coordinates[2][1]` a MultiPolygon's polygon 2, ring 1.
enum FenceRingStructure {
    typealias Fail = FenceGeoJSONGeometry.Fail

    /// The rings of `polygons` (each: its outer ring, then its holes), in that order, once they are valid and nest as
    /// declared. `multi`: they are a MultiPolygon's (else one Polygon's, and `polygons` holds just it).
    static func rings(_ polygons: [[[Coordinate]]], multi: Bool, fail: Fail) throws(FenceFileError) -> [[Coordinate]] {
        var rings: [[Coordinate]] = []
        var declared: [(polygon: Int, ring: Int)] = []
        for (p, polygon) in polygons.enumerated() {
            for (r, ring) in polygon.enumerated() {
                rings.append(ring)
                declared.append((p, r))
            }
        }
        func member(_ index: Int) -> String {
            let (p, r) = declared[index]
            return multi ? "geometry.coordinates[\(p)][\(r)]" : "geometry.coordinates[\(r)]"
        }
        func polygonMember(_ p: Int) -> String { multi ? "geometry.coordinates[\(p)]" : "geometry.coordinates" }

        let parents: [Int?]
        do {
            parents = try RingSet.nesting(rings)
        } catch {
            switch error {
            case .zeroArea(let ring):
                throw fail(member(ring), "encloses no area: its corners are fewer than 3 distinct ones or all on one "
                    + "line")
            case .crossing(let ring, let other, let near) where ring == other:
                throw fail(member(ring), "crosses or touches itself near \(near) (a ring must be simple)")
            case .crossing(let ring, let other, let near):
                throw fail(member(ring), "crosses or shares an edge with \(member(other)) near \(near) (rings may "
                    + "touch at single points only"
                    + (multi && declared[ring].polygon != declared[other].polygon
                        ? "; the polygons of a MultiPolygon may not overlap)" : ")"))
            case .dense(let near):
                throw fail("geometry.coordinates", "has more than \(RingSet.maximumEdgesPerCell) edges crowded "
                    + "together near \(near) (edges meeting at one point, rings on top of each other, or very many "
                    + "long edges side by side): refused so that the work of a query stays bounded")
            case .unusable:
                // Not a polygon the monitor takes at all (across ±180°, ...): the reader's monitor check names it.
                return rings
            }
        }

        for (index, parent) in parents.enumerated() {
            let (p, r) = declared[index]
            if r > 0 {
                // A hole: directly inside its own outer ring.
                guard let parent else {
                    throw fail(member(index), "is a hole that lies outside its outer ring \(member(index - r))")
                }
                if parent == index - r { continue }
                if declared[parent].polygon == p {
                    throw fail(member(index), "is a hole that lies inside another hole of its polygon, "
                        + "\(member(parent)) (holes may not nest)")
                }
                throw fail(member(index), "is a hole that lies inside \(member(parent)), of another polygon, not "
                    + "directly inside its own outer ring \(member(index - r))")
            } else if let parent {
                // An outer ring: inside nothing but, maybe, a hole of another polygon (an island in a lake).
                if declared[parent].ring > 0 && declared[parent].polygon != p { continue }
                if declared[parent].polygon == p {
                    throw fail(member(index), "is an outer ring that lies inside its own hole \(member(parent))")
                }
                throw fail(polygonMember(p), "lies inside \(polygonMember(declared[parent].polygon)): the polygons of "
                    + "a MultiPolygon may not overlap (give their union as one polygon)")
            }
        }
        return rings
    }
}
