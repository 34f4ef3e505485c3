import Foundation

/// GCJ-02, the datum of maps published in China: the published conversion from WGS-84, and its inverse by
/// iteration.
///
/// ## The forward formula (WGS-84 → GCJ-02)
/// The one every independent implementation uses (eviltransform, coordtransform, gcoord, ...), reconstructed from
/// the leaked code: with x = λ − 105° and y = φ − 35° (degrees),
///
///     Δφ' = −100 + 2x + 3y + 0.2y² + 0.1xy + 0.2√|x| + ⅔(20 sin 6πx + 20 sin 2πx) + ⅔(20 sin πy + 40 sin πy/3)
///           + ⅔(160 sin πy/12 + 320 sin πy/30)
///     Δλ' = 300 + x + 2y + 0.1x² + 0.1xy + 0.1√|x| + ⅔(20 sin 6πx + 20 sin 2πx) + ⅔(20 sin πx + 40 sin πx/3)
///           + ⅔(150 sin πx/12 + 300 sin πx/30)
///
/// in metres, turned into degrees with the radii of curvature of the Krasovsky 1940 ellipsoid (a = 6 378 245 m,
/// e² = 0.006 693 421 622 965 943 23) at φ: Δφ = Δφ'·180 / (π·M), M = a(1 − e²)/(1 − e² sin²φ)^{3/2};
/// Δλ = Δλ'·180 / (π·N·cos φ), N = a/(1 − e² sin²φ)^{1/2}. GCJ-02 = WGS-84 + (Δφ, Δλ): up to ~700 m.
///
/// ## Outside China: the identity, by the published box test
/// The published algorithm shifts a point only when 72.004° ≤ λ ≤ 137.8347° and 0.8293° ≤ φ ≤ 55.8271° (both
/// bounds inclusive; `isInsideChinaBox`). That box is rough: it also holds Mongolia, the Koreas, Japan west of
/// 137.83° E (Tokyo is outside, Osaka inside), Taiwan, much of South-East Asia and Central Asia. Points there get
/// the offset too, as they do in every implementation (and as Chinese map providers' data was shifted), so we keep
/// the published test rather than a real border. The conversion is discontinuous at the box's edges, which lie at
/// sea or outside China everywhere (China spans 73.5–134.8° E, 18–53.6° N).
///
/// ## The inverse (GCJ-02 → WGS-84)
/// The forward map is the identity plus an offset whose slope is small (a few millimetres per metre; only within
/// micrometres of λ = 105° does √|x| grow steep, where the term itself is below a millimetre), so
/// w ← w − (f(w) − g) is a contraction: `toWGS84` iterates it from w = g until f(w) is within `tolerance` (1e-9°,
/// 0.11 mm) of g on both axes, at most `maximumIterations` times. Measured over a 0.05° grid of China, 73.5–134.8° E
/// × 18–53.6° N (DatumTests): the round trip WGS-84 → GCJ-02 → WGS-84 is off by 0.15 mm at worst, and no point
/// needs more than 4 iterations (3 at the published test points). The input is a GCJ-02 point
/// and the box test is applied to it, as the published inverse does; within ~1 km of the box's edges (only at sea or
/// abroad) a point and its image can fall on different sides, and the round trip there is off by the offset.
public enum GCJ02 {
    /// Krasovsky 1940 ellipsoid, semi-major axis in metres, as the published formula uses it.
    public static let semiMajorAxis = 6_378_245.0
    /// Krasovsky 1940 ellipsoid, first eccentricity squared, as the published formula writes it.
    public static let eccentricitySquared = 0.006_693_421_622_965_943_23
    /// `toWGS84` stops when the forward image of its answer is this close to the input, in degrees on each axis
    /// (1e-9° is 0.11 mm of latitude).
    public static let tolerance = 1e-9
    /// A cap, never reached inside the box away from its edges (4 at most measured over China).
    public static let maximumIterations = 30

    /// The published "in China" test: 72.004 ≤ longitude ≤ 137.8347 and 0.8293 ≤ latitude ≤ 55.8271.
    public static func isInsideChinaBox(_ coordinate: Coordinate) -> Bool {
        coordinate.longitude >= 72.004 && coordinate.longitude <= 137.8347
            && coordinate.latitude >= 0.8293 && coordinate.latitude <= 55.8271
    }

    /// WGS-84 → GCJ-02 by the published formula; the identity outside the box (and for non-finite input).
    public static func fromWGS84(_ coordinate: Coordinate) -> Coordinate {
        guard isInsideChinaBox(coordinate) else { return coordinate }
        let (dLatitude, dLongitude) = offset(coordinate)
        return Coordinate(latitude: coordinate.latitude + dLatitude, longitude: coordinate.longitude + dLongitude)
    }

    /// GCJ-02 → WGS-84 by fixed-point iteration, with the number of iterations made (0 outside the box).
    public static func toWGS84(_ coordinate: Coordinate) -> (coordinate: Coordinate, iterations: Int) {
        guard isInsideChinaBox(coordinate) else { return (coordinate, 0) }
        var estimate = coordinate
        var best = (coordinate: coordinate, error: Double.infinity)
        for iteration in 1...maximumIterations {
            let image = fromWGS84(estimate)
            let dLatitude = image.latitude - coordinate.latitude
            let dLongitude = image.longitude - coordinate.longitude
            let error = max(abs(dLatitude), abs(dLongitude))
            if error < best.error { best = (estimate, error) }
            if error <= tolerance { return (estimate, iteration - 1) }
            estimate = Coordinate(latitude: estimate.latitude - dLatitude, longitude: estimate.longitude - dLongitude)
        }
        // Only near the box's edges, where the map jumps: the best estimate met.
        return (best.coordinate, maximumIterations)
    }

    /// (Δlatitude, Δlongitude) in degrees at a WGS-84 point: the formula above.
    static func offset(_ coordinate: Coordinate) -> (latitude: Double, longitude: Double) {
        let x = coordinate.longitude - 105
        let y = coordinate.latitude - 35
        let common = (20 * sin(6 * x * .pi) + 20 * sin(2 * x * .pi)) * 2 / 3
        var northMetres = -100 + 2 * x + 3 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * sqrt(abs(x)) + common
        northMetres += (20 * sin(y * .pi) + 40 * sin(y / 3 * .pi)) * 2 / 3
        northMetres += (160 * sin(y / 12 * .pi) + 320 * sin(y / 30 * .pi)) * 2 / 3
        var eastMetres = 300 + x + 2 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * sqrt(abs(x)) + common
        eastMetres += (20 * sin(x * .pi) + 40 * sin(x / 3 * .pi)) * 2 / 3
        eastMetres += (150 * sin(x / 12 * .pi) + 300 * sin(x / 30 * .pi)) * 2 / 3

        let latitude = coordinate.latitude * .pi / 180
        let w = 1 - eccentricitySquared * sin(latitude) * sin(latitude)
        let meridianRadius = semiMajorAxis * (1 - eccentricitySquared) / (w * w.squareRoot())
        let parallelRadius = semiMajorAxis / w.squareRoot() * cos(latitude)
        return (northMetres * 180 / (meridianRadius * .pi), eastMetres * 180 / (parallelRadius * .pi))
    }
}
