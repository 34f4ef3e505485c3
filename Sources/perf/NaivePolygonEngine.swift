/// The polygon baseline: what an app developer writes without a geofencing library. Every fix is tested against
/// every polygon with the even-odd ray cast (W. Randolph Franklin's PNPOLY) over every edge of every ring, in Double
/// degrees of longitude and latitude: no bounding box, no index. The edges are the same straight lines in
/// (longitude, latitude) as the core's, so the two disagree only for a fix within Double rounding of an edge
/// (about 1e-14 degree, 1e-9 m).
struct NaivePolygonEngine {
    /// Ring vertices as (longitude, latitude) degrees, all rings of all polygons in one array.
    private let longitudes: [Double]
    private let latitudes: [Double]
    /// As PolygonArrays: where each ring and each polygon ends.
    private let ringEnds: [Int]
    private let polygonEnds: [Int]

    /// Converts the polygons (the benchmark times this, and weighs what it keeps, as this engine's build cost).
    init(_ arrays: PolygonArrays) {
        longitudes = arrays.vertices.map { Double($0.lon) / 1e7 }
        latitudes = arrays.vertices.map { Double($0.lat) / 1e7 }
        ringEnds = arrays.ringEnds.map(Int.init)
        polygonEnds = arrays.polygonEnds.map(Int.init)
    }

    /// How many polygons contain the fix.
    func countInside(_ fix: Position) -> Int {
        var inside = 0
        var ring = 0
        for polygonEnd in polygonEnds {
            if contains(fix, rings: ring..<polygonEnd) { inside += 1 }
            ring = polygonEnd
        }
        return inside
    }

    /// The polygons containing the fix, by index, ascending: for the agreement check.
    func insideShapeIndices(at fix: Position) -> [Int] {
        var indices: [Int] = []
        var ring = 0
        for (polygon, polygonEnd) in polygonEnds.enumerated() {
            if contains(fix, rings: ring..<polygonEnd) { indices.append(polygon) }
            ring = polygonEnd
        }
        return indices
    }

    /// Even-odd over the rings: flips at each edge that straddles the fix's latitude east of the fix.
    private func contains(_ fix: Position, rings: Range<Int>) -> Bool {
        let x = fix.longitudeDegrees
        let y = fix.latitudeDegrees
        var inside = false
        for ring in rings {
            let start = ring == 0 ? 0 : ringEnds[ring - 1]
            var previous = ringEnds[ring] - 1
            for current in start..<ringEnds[ring] {
                let (xi, yi) = (longitudes[current], latitudes[current])
                let (xj, yj) = (longitudes[previous], latitudes[previous])
                if (yi > y) != (yj > y), x < (xj - xi) * (y - yi) / (yj - yi) + xi {
                    inside.toggle()
                }
                previous = current
            }
        }
        return inside
    }
}
