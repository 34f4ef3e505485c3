import CGeofence

/// One polygon as perf hands it to every engine: its rings in 1e-7 degree, the first the shell, the others holes,
/// each without the closing vertex repeated (the core ignores a repeated one; GEOS gets it re-added). Every engine
/// sees these same integers (the naive engine as degrees converted from them), so engines never disagree because
/// they were given different polygons.
struct PolygonShape {
    /// Where it came from, for messages: "Queensland part 12", "star".
    let name: String
    let rings: [[gf_point]]

    var vertexCount: Int { rings.reduce(0) { $0 + $1.count } }
}

/// A set of polygons flattened the way gf_polygon_add and the C peers take them: one vertex array, the end of each
/// ring in it, and the end of each polygon in the ring list. Made before any engine is built, so the bytes an engine
/// keeps are its own copy.
struct PolygonArrays {
    let vertices: [gf_point]
    /// Ring r is vertices[ringEnds[r - 1] ..< ringEnds[r]] (from 0 for the first).
    let ringEnds: [UInt32]
    /// Polygon p is rings polygonEnds[p - 1] ..< polygonEnds[p] (from 0 for the first).
    let polygonEnds: [UInt32]

    init(_ polygons: [PolygonShape]) {
        var vertices: [gf_point] = []
        var ringEnds: [UInt32] = []
        var polygonEnds: [UInt32] = []
        for polygon in polygons {
            for ring in polygon.rings {
                vertices += ring
                ringEnds.append(UInt32(vertices.count))
            }
            polygonEnds.append(UInt32(ringEnds.count))
        }
        self.vertices = vertices
        self.ringEnds = ringEnds
        self.polygonEnds = polygonEnds
    }
}

/// A corridor: a path with a half-width, as gf_corridor_add takes it.
struct CorridorShape {
    let path: [Position]
    let halfWidthMillimetres: UInt32

    var halfWidthMetres: Double { Double(halfWidthMillimetres) / 1000 }
}
