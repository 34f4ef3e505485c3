import Foundation

/// Where the straight segment between two fixes enters and leaves a region: the "fast pass through a small region"
/// that two fixes both outside would miss.
///
/// Circles: in closed form (below). Polygons and corridors: by stepping along the segment with the core's signed
/// distance (`through(length:depth:distance:)`).
///
/// Computed in a tangent plane at the region's centre with the WGS-84 radii of curvature there. Over the segments
/// this is used for (at most `maximumInterpolationGap` seconds of travel) and fences up to 50 km the plane's
/// distances differ from the geodesic ones by less than 1e-4 relative at mid latitudes, more towards the poles (the
/// longitude scale is taken at the centre): good enough to time an event that is an estimate anyway.
struct SegmentPass: Equatable {
    /// Fractions (0 ... 1) along the segment where it crosses the circle inwards and outwards.
    let entry: Double
    let exit: Double

    /// The pass of segment `from` -> `to` through the circle (center, radius), if its closest approach to the centre
    /// is at most `radius - depth` (it must go `depth` metres inside, the same rule as an ordinary enter) and lies
    /// strictly between the two fixes. When the closest point is a fix itself, the ordinary rules judged that fix
    /// with the core's distance and found it less than `depth` inside; this plane's distance can differ from the
    /// core's by millimetres, so a fix at just that depth would otherwise be a pass (an enter at the start and an
    /// exit at the end, while the vehicle is inside the circle) and the true enter would come one fix late.
    static func through(center: Coordinate, radius: Double, depth: Double, from: Coordinate, to: Coordinate)
        -> SegmentPass?
    {
        let (x0, y0) = planeOffset(of: from, around: center)
        let (x1, y1) = planeOffset(of: to, around: center)
        let dx = x1 - x0, dy = y1 - y0
        let lengthSquared = dx * dx + dy * dy
        guard lengthSquared > 0 else { return nil }
        let closest = min(1, max(0, -(x0 * dx + y0 * dy) / lengthSquared))
        guard closest > 0, closest < 1 else { return nil }
        let cx = x0 + closest * dx, cy = y0 + closest * dy
        let inner = radius - depth
        guard inner > 0, cx * cx + cy * cy <= inner * inner else { return nil }
        // |p0 + u d| = radius: a u^2 + b u + c = 0 with a = |d|^2, b = 2 p0.d, c = |p0|^2 - r^2.
        let b = 2 * (x0 * dx + y0 * dy)
        let c = x0 * x0 + y0 * y0 - radius * radius
        let root = (b * b - 4 * lengthSquared * c).squareRoot()
        let entry = (-b - root) / (2 * lengthSquared), exit = (-b + root) / (2 * lengthSquared)
        return SegmentPass(entry: min(1, max(0, entry)), exit: min(1, max(0, exit)))
    }

    /// The pass of a segment `length` metres long through a region whose signed distance from the boundary (metres,
    /// negative inside) at the fraction u of the segment is `distance(u)`, if the segment gets `depth` metres inside.
    /// For a shape the segment passes through several times (a concave polygon), one pass: from the first entry to
    /// the last exit.
    ///
    /// Sphere tracing: a signed distance changes by at most the distance moved, so a step of d metres from a point d
    /// outside cannot jump over the boundary, and a step of d + depth from a point not yet depth inside cannot jump
    /// over a point that is. Steps are at least 2 cm (the crossings are found to within 2 cm), and the search gives
    /// up after 10,000 distances (a segment grazing the boundary for kilometres; no pass is reported then).
    static func through(length: Double, depth: Double, distance: (Double) -> Double) -> SegmentPass? {
        guard length > 0, depth >= 0 else { return nil }
        let minimumStep = 0.02
        var budget = 10_000
        // The first point at or inside the boundary, walking forwards from the start.
        var u = 0.0
        var entry: Double?
        while u <= 1, budget > 0 {
            budget -= 1
            let d = distance(u)
            if d <= 0 { entry = u; break }
            u += max(d, minimumStep) / length
        }
        guard let entry else { return nil }
        // The last one, walking backwards from the end.
        u = 1
        var exit = entry
        while u >= entry, budget > 0 {
            budget -= 1
            let d = distance(u)
            if d <= 0 { exit = u; break }
            u -= max(d, minimumStep) / length
        }
        // Somewhere between them at least `depth` inside.
        u = entry
        while u <= exit, budget > 0 {
            budget -= 1
            let d = distance(u)
            if d <= -depth { return SegmentPass(entry: entry, exit: exit) }
            u += max(d + depth, minimumStep) / length
        }
        return nil
    }

    /// The point a fraction `u` along the segment (linear in degrees: the segment is short).
    static func point(at u: Double, from: Coordinate, to: Coordinate) -> Coordinate {
        var dLon = to.longitude - from.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        var lon = from.longitude + u * dLon
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return Coordinate(latitude: from.latitude + u * (to.latitude - from.latitude), longitude: lon)
    }

    /// East and north offsets in metres of `point` from `center` in the tangent plane at `center`.
    private static func planeOffset(of point: Coordinate, around center: Coordinate) -> (Double, Double) {
        let a = 6_378_137.0, e2 = 0.006_694_379_990_141_317
        let phi = center.latitude * .pi / 180
        let w = (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        let meridional = a * (1 - e2) / (w * w * w), primeVertical = a / w
        var dLon = point.longitude - center.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let east = dLon * .pi / 180 * primeVertical * cos(phi)
        let north = (point.latitude - center.latitude) * .pi / 180 * meridional
        return (east, north)
    }
}
