import Foundation

/// The Tokyo datum (EPSG:4301, Bessel 1841 ellipsoid) ↔ WGS-84 by the standard 3-parameter geocentric translation.
///
/// ## Method (EPSG method 9603, "geocentric translations (geog2D domain)")
/// Tokyo (φ, λ, h = 0 on Bessel 1841) → geocentric X, Y, Z → + (ΔX, ΔY, ΔZ) → geodetic φ, λ on WGS-84 (the height
/// that results is dropped). The inverse subtracts the same translation, starting from h = 0 on WGS-84, and then
/// corrects the small error of that start (see `fromWGS84`).
///
/// ## Parameters
/// ΔX = −146.414 m, ΔY = +507.337 m, ΔZ = +680.507 m: EPSG transformation 15483 "Tokyo to JGD2000 (1)" (and 15484
/// "Tokyo to WGS 84 (108)", the same values), published by the Geographical Survey Institute of Japan (GSI, now the
/// Geospatial Information Authority; Bulletin 40, 1994, and the "Manual of Coordinate Transformation to JGD2000 for
/// Public Surveys"). They were derived at the Tokyo datum origin; JGD2000 (GRS80) and WGS-84 agree to well within
/// the method's accuracy. The other widely used set, NIMA TR8350.2's "Tokyo, Japan" (−148, +507, +685 m, ±8/5/8 m),
/// is a mean fit over Japan; we take GSI's because the official grid (TKY2JGD) is GSI's too.
/// Ellipsoids: Bessel 1841 a = 6 377 397.155 m, 1/f = 299.152 812 8; WGS-84 a = 6 378 137 m, 1/f = 298.257 223 563.
///
/// ## Error
/// The Tokyo datum was surveyed by triangulation and is distorted by several metres across Japan, which no single
/// shift captures; the exact conversion is GSI's grid (TKY2JGD, EPSG 6712: ±0.2 m). Against published points
/// (DatumTests): 0.82 m at the datum origin in Tokyo (GSI's published coordinates in both datums), 1.27 to
/// 1.53 m at seven triangulation points in Ibaraki and 1.40 m in Yamanashi (GSI's TKY2JGD results), and 0.3 mm at a
/// point at sea east of Honshu, outside GSI's grid (TKY2JGD's answer there agrees with this same shift).
/// EPSG states 9 m on the main islands, and hundreds of metres on remote islands (Io-To 793 m, Daito 642 m,
/// Yonaguni 248 m). Fine for fences of 100 m and more on the main islands; not for survey work.
/// Round trip WGS-84 → Tokyo → WGS-84 and back: within 1e-8 m (the opposite shift alone: up to 3 mm).
public enum TokyoDatum {
    /// (ΔX, ΔY, ΔZ) in metres from the Tokyo datum's geocentric frame to WGS-84's (EPSG 15483, GSI).
    public static let translation = (x: -146.414, y: 507.337, z: 680.507)

    /// Bessel 1841 (EPSG 7004).
    static let bessel = Ellipsoid(semiMajorAxis: 6_377_397.155, inverseFlattening: 299.152_812_8)
    /// WGS-84 (EPSG 7030).
    static let wgs84 = Ellipsoid(semiMajorAxis: 6_378_137, inverseFlattening: 298.257_223_563)

    public static func toWGS84(_ coordinate: Coordinate) -> Coordinate {
        shift(coordinate, from: bessel, to: wgs84, sign: 1)
    }

    /// The opposite shift, then `refinements` corrections t ← t − (toWGS84(t) − w), so that this is the inverse of
    /// `toWGS84` to the last bits. The opposite shift alone is off by up to 3 mm (measured over Japan: it starts
    /// from h = 0 on WGS-84, not from the height the forward shift produced), which repeated export and import
    /// would add up; after the corrections the round trip is within 1e-8 m (a few ulps).
    public static func fromWGS84(_ coordinate: Coordinate) -> Coordinate {
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite else { return coordinate }
        var estimate = shift(coordinate, from: wgs84, to: bessel, sign: -1)
        for _ in 0..<refinements {
            let image = toWGS84(estimate)
            var dLongitude = image.longitude - coordinate.longitude
            if dLongitude > 180 { dLongitude -= 360 } else if dLongitude < -180 { dLongitude += 360 }
            // Clamped: within metres of a pole a correction can step past ±90°.
            let latitude = min(90, max(-90, estimate.latitude - (image.latitude - coordinate.latitude)))
            estimate = Coordinate(latitude: latitude, longitude: estimate.longitude - dLongitude).wrappingLongitude
        }
        return estimate
    }

    /// Corrections after the opposite shift; each divides the error by ~10^4 (the shift's derivative is ~1e-4).
    static let refinements = 2

    private static func shift(_ coordinate: Coordinate, from source: Ellipsoid, to target: Ellipsoid, sign: Double)
        -> Coordinate
    {
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite else { return coordinate }
        var point = source.geocentric(coordinate)
        point.x += sign * translation.x
        point.y += sign * translation.y
        point.z += sign * translation.z
        return target.geodetic(point).wrappingLongitude
    }
}

/// An ellipsoid of revolution, and the conversions between geodetic coordinates at height 0 and geocentric ones.
struct Ellipsoid {
    let semiMajorAxis: Double
    let eccentricitySquared: Double

    init(semiMajorAxis: Double, inverseFlattening: Double) {
        self.semiMajorAxis = semiMajorAxis
        let flattening = 1 / inverseFlattening
        eccentricitySquared = flattening * (2 - flattening)
    }

    /// Geocentric X, Y, Z in metres of a point at height 0.
    func geocentric(_ coordinate: Coordinate) -> (x: Double, y: Double, z: Double) {
        let latitude = coordinate.latitude * .pi / 180
        let longitude = coordinate.longitude * .pi / 180
        let n = semiMajorAxis / (1 - eccentricitySquared * sin(latitude) * sin(latitude)).squareRoot()
        return (n * cos(latitude) * cos(longitude), n * cos(latitude) * sin(longitude),
                n * (1 - eccentricitySquared) * sin(latitude))
    }

    /// Geodetic latitude and longitude of a geocentric point (its height is not needed), by iterating
    /// φ = atan2(Z, p(1 − e² N/(N + h))) from φ = atan2(Z, p(1 − e²)), with h = p cos φ + Z sin φ − a²/N written so
    /// that it stays finite at the poles (p = 0). Within a few kilometres of the ellipsoid it converges to 1e-15 rad
    /// (6 nm) in 3 or 4 steps; at most 10 are made.
    func geodetic(_ point: (x: Double, y: Double, z: Double)) -> Coordinate {
        let p = (point.x * point.x + point.y * point.y).squareRoot()
        var latitude = atan2(point.z, p * (1 - eccentricitySquared))
        for _ in 0..<10 {
            let s = sin(latitude)
            let root = (1 - eccentricitySquared * s * s).squareRoot()
            let n = semiMajorAxis / root
            let height = p * cos(latitude) + point.z * s - semiMajorAxis * root
            let next = atan2(point.z, p * (1 - eccentricitySquared * n / (n + height)))
            let change = abs(next - latitude)
            latitude = next
            if change < 1e-15 { break }
        }
        return Coordinate(latitude: latitude * 180 / .pi, longitude: atan2(point.y, point.x) * 180 / .pi)
    }
}
