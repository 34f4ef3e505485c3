// Placing test points: degrees to e7, "about this far from that point" on a sphere, and "exactly on that boundary".
//
// These helpers only decide *where* test points go. Whether a point is inside a fence is always decided by the core's
// own gf_distance (brute force) or by the geographiclib fixture, never by this approximate geometry.
import CGeofence
import Foundation
import Testing
import GeofencingTestSupport
import GeofencingInputs

enum TestGeometry {
    static let e7PerDegree = 10_000_000.0
    static let meanEarthRadiusMetres = 6_371_008.8

    /// Degrees to e7, nearest, with longitudes wrapped into [-180, 180) and latitudes clamped to the poles, so any
    /// computed position becomes a valid fix.
    static func point(latitude: Double, longitude: Double) -> gf_point {
        let lat = min(max(latitude, -90), 90)
        var lon = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if lon < 0 { lon += 360 }
        lon -= 180
        var lonE7 = Int64((lon * e7PerDegree).rounded())
        if lonE7 >= Int64(GF_LON_MAX_E7) { lonE7 -= 2 * Int64(GF_LON_MAX_E7) }
        return gf_point(lat: Int32((lat * e7PerDegree).rounded()), lon: Int32(lonE7))
    }

    static func degrees(_ point: gf_point) -> (latitude: Double, longitude: Double) {
        (Double(point.lat) / e7PerDegree, Double(point.lon) / e7PerDegree)
    }

    /// The point `metres` away from `start` along `azimuthDegrees`, on a sphere (off from the ellipsoid by up to
    /// 0.5 %, plenty for putting a fix near a boundary). Crosses the antimeridian and the poles correctly.
    static func offset(_ start: gf_point, metres: Double, azimuthDegrees: Double) -> gf_point {
        let (latDeg, lonDeg) = degrees(start)
        let lat1 = latDeg * .pi / 180
        let lon1 = lonDeg * .pi / 180
        let azimuth = azimuthDegrees * .pi / 180
        let angle = metres / meanEarthRadiusMetres
        let sinLat2 = sin(lat1) * cos(angle) + cos(lat1) * sin(angle) * cos(azimuth)
        let lat2 = asin(min(max(sinLat2, -1), 1))
        let lon2 = lon1 + atan2(sin(azimuth) * sin(angle) * cos(lat1), cos(angle) - sin(lat1) * sinLat2)
        return point(latitude: lat2 * 180 / .pi, longitude: lon2 * 180 / .pi)
    }

    /// A fence centre may not lie beyond +-85 degrees: clamps a computed centre onto that limit.
    static func clampedToFenceLatitude(_ point: gf_point) -> gf_point {
        let limit = Int32(GF_FENCE_LAT_MAX_E7)
        return gf_point(lat: min(max(point.lat, -limit), limit), lon: point.lon)
    }

    /// A point whose core distance from `centre` is `targetMM` to within about a centimetre: the spherical offset is
    /// corrected twice by the core's own answer, so the fix sits right on the boundary the index must respect.
    static func pointAtCoreDistance(
        _ targetMM: Double, from centre: gf_point, using random: inout SplitMix64
    ) throws -> gf_point {
        let azimuth = Double.random(in: 0..<360, using: &random)
        var metres = max(targetMM, 0) / 1000
        var point = TestGeometry.offset(centre, metres: metres, azimuthDegrees: azimuth)
        for _ in 0..<2 {
            let reached = Double(try coreDistance(centre, point))
            guard reached > 0 else { break }
            metres *= targetMM / reached
            point = TestGeometry.offset(centre, metres: metres, azimuthDegrees: azimuth)
        }
        return point
    }
}
