// Small numeric helpers of the simulator, kept in one namespace so they cannot clash with other files of the module.
import Foundation

package enum SimulationMath {
    /// WGS-84 semi-major axis (m) and first eccentricity squared.
    static let semiMajorAxis = 6_378_137.0
    static let eccentricitySquared = 0.006_694_379_990_141_317

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    /// A longitude (or longitude difference) in degrees brought into -180 ... 180.
    static func normalizedLongitude(_ value: Double) -> Double {
        var wrapped = value.truncatingRemainder(dividingBy: 360)
        if wrapped > 180 { wrapped -= 360 } else if wrapped < -180 { wrapped += 360 }
        return wrapped
    }

    /// A direction in degrees brought into 0 ..< 360 (NMEA and gpsd courses).
    package static func normalizedCourse(_ value: Double) -> Double {
        let wrapped = value.truncatingRemainder(dividingBy: 360)
        let positive = wrapped < 0 ? wrapped + 360 : wrapped
        return positive >= 360 ? 0 : positive  // -1e-17 + 360 rounds to 360
    }

    /// Metres per radian of latitude (meridional radius of curvature M) and per radian of longitude (the parallel's
    /// radius, N cos φ) at a geodetic latitude in degrees.
    static func metresPerRadian(atLatitude latitude: Double) -> (north: Double, east: Double) {
        let phi = radians(latitude)
        let w = (1 - eccentricitySquared * sin(phi) * sin(phi)).squareRoot()
        let meridional = semiMajorAxis * (1 - eccentricitySquared) / (w * w * w)
        let primeVertical = semiMajorAxis / w
        return (meridional, primeVertical * cos(phi))
    }
}
