// Test support: metres <-> degrees around a point, to place fixes at known distances from a region's centre.
import Foundation
import Geofencing

/// A flat east/north frame in metres, tangent to the WGS-84 ellipsoid at `origin` (radii of curvature taken there).
///
/// Tests put a region's centre at the origin and build fixes as offsets from it, so a fix's distance from the
/// boundary is known without trusting the code under test. Along the axes the plane's distances match the geodesic
/// within the core's own error (9 mm) over a kilometre; off the axes the error grows with the square of the distance
/// (a parallel's scale changes with latitude) but stays within 2 cm up to the 400 m from a centre the hand-made
/// tracks use (`LocalPlaneTests` checks both against the core's distance).
struct LocalPlane: Sendable {
    let origin: Coordinate
    private let metresPerDegreeNorth: Double
    private let metresPerDegreeEast: Double

    init(origin: Coordinate) {
        self.origin = origin
        let a = 6_378_137.0, e2 = 0.006_694_379_990_141_317
        let phi = origin.latitude * .pi / 180
        let w = (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        metresPerDegreeNorth = a * (1 - e2) / (w * w * w) * .pi / 180  // meridional radius
        metresPerDegreeEast = a / w * cos(phi) * .pi / 180  // prime vertical radius, on the parallel
    }

    /// The coordinate `east` and `north` metres from the origin.
    func coordinate(east: Double, north: Double) -> Coordinate {
        var longitude = origin.longitude + east / metresPerDegreeEast
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: origin.latitude + north / metresPerDegreeNorth, longitude: longitude)
    }

    /// East and north metres of a coordinate from the origin (across the antimeridian the short way).
    func offset(of coordinate: Coordinate) -> (east: Double, north: Double) {
        var dLon = coordinate.longitude - origin.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return (dLon * metresPerDegreeEast, (coordinate.latitude - origin.latitude) * metresPerDegreeNorth)
    }

    /// Metres from the origin.
    func distanceFromOrigin(_ coordinate: Coordinate) -> Double {
        let (east, north) = offset(of: coordinate)
        return (east * east + north * north).squareRoot()
    }

    /// Signed metres from the boundary of a circle of `radius` around the origin (negative inside), the quantity
    /// the monitor's rules are written in.
    func boundaryDistance(_ coordinate: Coordinate, radius: Double) -> Double {
        distanceFromOrigin(coordinate) - radius
    }
}

extension Coordinate {
    /// Brisbane GPO: the origin of most hand-made tracks (a mid-southern latitude, where a longitude degree is
    /// visibly shorter than a latitude degree, so east/north mix-ups show).
    static let brisbane = Coordinate(latitude: -27.4679357, longitude: 153.0281038)
}
