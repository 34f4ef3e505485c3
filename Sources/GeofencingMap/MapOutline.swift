import Foundation
import Geofencing

/// A polygon's rings or a corridor's path in the map's plane (`LocalProjection`), thinned for drawing.
///
/// Thinning (`OutlineSimplifier`, drawing only; the monitor keeps every vertex): the tolerance starts at
/// `toleranceFraction` of the outline's larger plane extent, half a pixel when the outline fills a 2000-px view
/// (a 2,400 km state: 600 m; a 2 km polygon: 0.5 m), and doubles until at most `vertexBudget` vertices are drawn
/// (every ring keeps at least 3, so a polygon of more than 1,333 rings may draw more). The tolerance used is in the
/// page's data and in the fence's tooltip ("drawn within T m"); coordinates are then rounded to 1 cm (tolerance
/// under 1 m) or 10 cm, which adds at most 7 cm.
struct MapOutline {
    enum Kind: String {
        case polygon
        case corridor
    }

    /// Half a pixel at a 2000-px view of the outline alone.
    static let toleranceFraction = 1.0 / 4000
    /// Vertices drawn per polygon or corridor at most (all rings together): 4,000 vertices are about 50 KB of the
    /// page and draw in a few milliseconds.
    static let vertexBudget = 4_000

    let kind: Kind
    /// The drawn rings (a polygon: ring 0 outer, the others holes or further parts, even-odd as the monitor) or
    /// the one drawn path (a corridor), as plane metres; rings without a repeated closing vertex.
    let parts: [(x: [Double], y: [Double])]
    /// The plane box of every vertex of the region (not only the drawn ones), a corridor's widened by its
    /// half-width: what "fit all" includes and where the label goes.
    let box: (x0: Double, y0: Double, x1: Double, y1: Double)
    /// A corridor's half-width in true metres and in plane metres (the geometric mean of the plane's east and north
    /// scales at the corridor's centre: the band is drawn as a round-capped stroke, the same width in every
    /// direction, so it is off by half the difference of the two scales, 0.5 % per 1.1 deg of latitude from the
    /// map's centre). 0 for a polygon.
    let halfWidth: Double
    let planeHalfWidth: Double
    /// Vertices of the region as given (closing vertices of rings not counted), and as drawn.
    let vertexCount: Int
    let drawnCount: Int
    /// Plane metres: every vertex of the region is within this distance of the drawn outline.
    let tolerance: Double

    /// The outline of a polygon or corridor; nil for a circle or a shape that cannot be drawn (a coordinate that
    /// is not valid, a ring of fewer than 3 vertices, a path of fewer than 2, a half-width that is not positive).
    init?(shape: RegionShape, projection: LocalProjection) {
        var lines: [[Coordinate]]
        switch shape {
        case .circle:
            return nil
        case .polygon(let rings):
            kind = .polygon
            lines = rings.map { ring in
                ring.count > 1 && ring.first == ring.last ? Array(ring.dropLast()) : ring
            }
            guard !lines.isEmpty, lines.allSatisfy({ $0.count >= 3 }) else { return nil }
            halfWidth = 0
            planeHalfWidth = 0
        case .corridor(let path, let width):
            kind = .corridor
            lines = [path]
            guard path.count >= 2, width.isFinite, width > 0 else { return nil }
            halfWidth = width
            let radii = projection.radii(ofCircleAt: shape.center, radius: width)
            planeHalfWidth = (radii.x * radii.y).squareRoot()
        }
        guard lines.allSatisfy({ $0.allSatisfy(\.isValid) }) else { return nil }

        var projected: [(x: [Double], y: [Double])] = []
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for line in lines {
            var xs: [Double] = [], ys: [Double] = []
            xs.reserveCapacity(line.count)
            ys.reserveCapacity(line.count)
            for coordinate in line {
                let point = projection.project(coordinate)
                xs.append(point.x)
                ys.append(point.y)
                x0 = min(x0, point.x)
                y0 = min(y0, point.y)
                x1 = max(x1, point.x)
                y1 = max(y1, point.y)
            }
            projected.append((xs, ys))
        }
        box = (x0 - planeHalfWidth, y0 - planeHalfWidth, x1 + planeHalfWidth, y1 + planeHalfWidth)
        vertexCount = lines.reduce(0) { $0 + $1.count }

        let isPolygon = kind == .polygon
        var tolerance = max(x1 - x0, y1 - y0) * Self.toleranceFraction
        var drawn: [(x: [Double], y: [Double])]
        while true {
            let simplifier = OutlineSimplifier(tolerance: tolerance)
            drawn = projected.map { part in
                let kept = isPolygon
                    ? simplifier.keptIndices(ofRing: part.x, part.y) : simplifier.keptIndices(ofPath: part.x, part.y)
                return (kept.map { part.x[$0] }, kept.map { part.y[$0] })
            }
            let count = drawn.reduce(0) { $0 + $1.x.count }
            // The floor: 3 a ring (2 for a path) is all that is left to drop.
            let floor = isPolygon ? 3 * drawn.count : 2
            if count <= Self.vertexBudget || count <= floor || !(tolerance > 0) {
                drawnCount = count
                break
            }
            tolerance *= 2
        }
        parts = drawn
        self.tolerance = tolerance
    }

    /// The south-west and north-east corners of a shape's vertices, so the map's projection is centred on what is
    /// drawn (a circle: its centre).
    static func corners(of shape: RegionShape) -> [Coordinate] {
        if case .circle(let center, _) = shape { return [center] }
        guard let box = shape.boundingBox else { return [] }
        return [box.southWest, box.northEast]
    }
}
