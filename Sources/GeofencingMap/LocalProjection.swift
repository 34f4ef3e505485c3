import Foundation
import Geofencing

/// The map's plane: metres east and north of an origin, linear in latitude and longitude (a local equirectangular
/// projection on the WGS-84 ellipsoid), so the page can invert it exactly and draw a scale bar that is true anywhere.
///
/// `x = Δλ · kEast(φ0)` and `y = Δφ · kNorth(φ0)`, with Δλ wrapped to ±180° (so data across the antimeridian stays
/// together) and the radii of curvature taken at the origin's latitude φ0. At the origin the scale is exactly 1.
/// Elsewhere a true metre east is `kEast(φ0) / kEast(φ)` plane units (1 % off for every ~1.1° of latitude from φ0
/// at 27°S) and a true metre north `kNorth(φ0) / kNorth(φ)` (under 0.01 % within 1°). Fences therefore are drawn as
/// ellipses with the local scale of their own centre (`radii(ofCircle:)`), which keeps a 50 km fence true to 0.5 % of
/// its radius; the page's scale bar uses the scale at the view's centre latitude.
struct LocalProjection: Sendable, Equatable {
    let origin: Coordinate
    /// Plane metres per degree of latitude (the meridional radius of curvature at the origin, per degree).
    let metresPerDegreeNorth: Double
    /// Plane metres per degree of longitude (the parallel's radius at the origin, per degree).
    let metresPerDegreeEast: Double

    init(origin: Coordinate) {
        self.origin = origin
        metresPerDegreeNorth = Self.metresPerDegreeNorth(atLatitude: origin.latitude)
        metresPerDegreeEast = Self.metresPerDegreeEast(atLatitude: origin.latitude)
    }

    /// WGS-84 semi-major axis (m) and first eccentricity squared.
    static let semiMajorAxis = 6_378_137.0
    static let eccentricitySquared = 0.006_694_379_990_141_317

    /// Length of one degree of latitude at `latitude` (degrees), in metres: the meridional radius M(φ) · π/180.
    static func metresPerDegreeNorth(atLatitude latitude: Double) -> Double {
        let s = sin(latitude * .pi / 180)
        let w = (1 - eccentricitySquared * s * s).squareRoot()
        return semiMajorAxis * (1 - eccentricitySquared) / (w * w * w) * .pi / 180
    }

    /// Length of one degree of longitude at `latitude` (degrees), in metres: N(φ) · cos φ · π/180.
    static func metresPerDegreeEast(atLatitude latitude: Double) -> Double {
        let phi = latitude * .pi / 180
        let s = sin(phi)
        return semiMajorAxis * cos(phi) / (1 - eccentricitySquared * s * s).squareRoot() * .pi / 180
    }

    /// A longitude difference wrapped to -180 ... 180 degrees.
    static func wrappedDegrees(_ degrees: Double) -> Double {
        var wrapped = degrees.truncatingRemainder(dividingBy: 360)
        if wrapped > 180 { wrapped -= 360 } else if wrapped < -180 { wrapped += 360 }
        return wrapped
    }

    /// Plane coordinates (metres east, metres north of the origin) of a coordinate.
    func project(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        (Self.wrappedDegrees(coordinate.longitude - origin.longitude) * metresPerDegreeEast,
         (coordinate.latitude - origin.latitude) * metresPerDegreeNorth)
    }

    /// Half-axes in plane metres of the ellipse that a circle of `radius` true metres around `center` becomes.
    func radii(ofCircleAt center: Coordinate, radius: Double) -> (x: Double, y: Double) {
        let east = Self.metresPerDegreeEast(atLatitude: center.latitude)
        let north = Self.metresPerDegreeNorth(atLatitude: center.latitude)
        // Near the poles a degree of longitude shrinks to nothing; |lat| <= 85° for regions keeps east >= 9.7 km.
        return (radius * metresPerDegreeEast / max(east, 1), radius * metresPerDegreeNorth / north)
    }

    /// The projection centred on the data: latitude halfway between the extreme latitudes, longitude halfway across
    /// the smallest arc of longitudes that holds them all (found as the complement of the widest empty gap between
    /// sorted longitudes), so a set straddling ±180° is centred on 180°, not on 0°. (0, 0) for no data.
    static func centred(on coordinates: [Coordinate]) -> LocalProjection {
        let valid = coordinates.filter(\.isValid)
        guard let first = valid.first else { return LocalProjection(origin: Coordinate(latitude: 0, longitude: 0)) }
        var south = first.latitude, north = first.latitude
        for coordinate in valid {
            south = min(south, coordinate.latitude)
            north = max(north, coordinate.latitude)
        }
        let longitudes = valid.map { $0.longitude == -180 ? 180 : $0.longitude }.sorted()
        // The gap after the last longitude wraps round to the first.
        var widestGap = longitudes[0] + 360 - longitudes[longitudes.count - 1]
        var arcStart = longitudes[0]  // the arc of data begins at the end of the widest gap
        for index in 1..<longitudes.count {
            let gap = longitudes[index] - longitudes[index - 1]
            if gap > widestGap {
                widestGap = gap
                arcStart = longitudes[index]
            }
        }
        let arcLength = 360 - widestGap
        let centreLongitude = wrappedDegrees(arcStart + arcLength / 2)
        return LocalProjection(origin: Coordinate(latitude: (south + north) / 2, longitude: centreLongitude))
    }
}
