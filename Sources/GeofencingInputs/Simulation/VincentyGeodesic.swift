// Geodesics on the WGS-84 ellipsoid, for moving the simulated vehicle along its route.
import Foundation
import Geofencing

/// Vincenty's inverse and direct solutions of the geodesic problem on the WGS-84 ellipsoid (T. Vincenty, "Direct
/// and inverse solutions of geodesics on the ellipsoid with application of nested equations", Survey Review 23,
/// 1975), written from the published equations.
///
/// Accuracy: the series are truncated at terms of order f³, which Vincenty states as errors below 0.1 mm in
/// distance for lines up to 20,000 km; the tests check Vincenty's own published example (Flinders Peak to
/// Buninyong, 54,972.271 m) to 1 mm and 1e-5 arc seconds, and short lines against the ECEF chord, an independent
/// computation that differs from the arc by under 1e-6 m at 1 km. The inverse iteration does not converge for
/// nearly antipodal points; `inverse` then returns nil rather than a wrong answer or NaN. A route segment is never
/// that long, and the route rejects it with a clear error.
enum VincentyGeodesic {
    /// WGS-84 semi-major axis (m) and flattening.
    static let a = 6_378_137.0
    static let f = 1 / 298.257_223_563
    /// Semi-minor axis (m).
    static let b = a * (1 - f)

    /// The geodesic between two points: its length and the forward azimuths at both ends.
    struct Line: Sendable, Hashable {
        /// Length in metres.
        var distance: Double
        /// Azimuth at the start, radians clockwise from north.
        var initialAzimuth: Double
        /// Azimuth of travel at the end, radians clockwise from north.
        var finalAzimuth: Double
    }

    /// Where a geodesic leads: the end point and the azimuth of travel there.
    struct Destination: Sendable, Hashable {
        var coordinate: Coordinate
        /// Radians clockwise from north.
        var azimuth: Double
    }

    /// The geodesic from `start` to `end`; nil when the iteration does not converge (nearly antipodal points).
    /// Coincident points give a zero-length line with azimuth 0.
    static func inverse(from start: Coordinate, to end: Coordinate) -> Line? {
        let reducedStart = ReducedLatitude(geodetic: start.latitude)
        let reducedEnd = ReducedLatitude(geodetic: end.latitude)
        let (sinU1, cosU1) = (reducedStart.sine, reducedStart.cosine)
        let (sinU2, cosU2) = (reducedEnd.sine, reducedEnd.cosine)
        let longitudeDifference = SimulationMath.radians(
            SimulationMath.normalizedLongitude(end.longitude - start.longitude))

        // λ, the longitude difference on the auxiliary sphere, is found by fixed-point iteration.
        var lambda = longitudeDifference
        for _ in 0..<200 {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let crossTerm = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            let sinSigma = ((cosU2 * sinLambda) * (cosU2 * sinLambda) + crossTerm * crossTerm).squareRoot()
            if sinSigma == 0 { return Line(distance: 0, initialAzimuth: 0, finalAzimuth: 0) }
            let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            let sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            let cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            // On the equator cos²α is 0 and the midpoint term is undefined; its coefficient vanishes there.
            let cos2SigmaM = cosSquaredAlpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha
            let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
            let previous = lambda
            lambda = longitudeDifference + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-14 {
                let series = Series(cosSquaredAlpha: cosSquaredAlpha)
                let deltaSigma = series.deltaSigma(sigma: sigma, sinSigma: sinSigma, cosSigma: cosSigma,
                                                   cos2SigmaM: cos2SigmaM)
                let sinL = sin(lambda), cosL = cos(lambda)
                return Line(
                    distance: b * series.a * (sigma - deltaSigma),
                    initialAzimuth: atan2(cosU2 * sinL, cosU1 * sinU2 - sinU1 * cosU2 * cosL),
                    finalAzimuth: atan2(cosU1 * sinL, -sinU1 * cosU2 + cosU1 * sinU2 * cosL))
            }
        }
        return nil
    }

    /// The point `distance` metres from `start` along the geodesic leaving it at `azimuth` (radians clockwise from
    /// north). Converges for every distance (the iteration contracts by a factor of about f).
    static func direct(from start: Coordinate, azimuth alpha1: Double, distance: Double) -> Destination {
        let reduced = ReducedLatitude(geodetic: start.latitude)
        let (sinU1, cosU1) = (reduced.sine, reduced.cosine)
        let sinAlpha1 = sin(alpha1), cosAlpha1 = cos(alpha1)
        let sigma1 = atan2(sinU1, cosU1 * cosAlpha1)
        let sinAlpha = cosU1 * sinAlpha1
        let cosSquaredAlpha = 1 - sinAlpha * sinAlpha
        let series = Series(cosSquaredAlpha: cosSquaredAlpha)

        let sigmaFirstGuess = distance / (b * series.a)
        var sigma = sigmaFirstGuess
        var cos2SigmaM = cos(2 * sigma1 + sigma)
        for _ in 0..<100 {
            cos2SigmaM = cos(2 * sigma1 + sigma)
            let deltaSigma = series.deltaSigma(sigma: sigma, sinSigma: sin(sigma), cosSigma: cos(sigma),
                                               cos2SigmaM: cos2SigmaM)
            let previous = sigma
            sigma = sigmaFirstGuess + deltaSigma
            if abs(sigma - previous) < 1e-14 { break }
        }
        cos2SigmaM = cos(2 * sigma1 + sigma)
        let sinSigma = sin(sigma), cosSigma = cos(sigma)
        let tmp = sinU1 * sinSigma - cosU1 * cosSigma * cosAlpha1
        let latitude = atan2(sinU1 * cosSigma + cosU1 * sinSigma * cosAlpha1,
                             (1 - f) * (sinAlpha * sinAlpha + tmp * tmp).squareRoot())
        let lambda = atan2(sinSigma * sinAlpha1, cosU1 * cosSigma - sinU1 * sinSigma * cosAlpha1)
        let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
        let longitudeDifference = lambda - (1 - c) * f * sinAlpha
            * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        return Destination(
            coordinate: Coordinate(
                latitude: SimulationMath.degrees(latitude),
                longitude: SimulationMath.normalizedLongitude(
                    start.longitude + SimulationMath.degrees(longitudeDifference))),
            azimuth: atan2(sinAlpha, -tmp))
    }

    /// sin and cos of the reduced (parametric) latitude U, tan U = (1 - f) tan φ, computed without the tangent so
    /// the poles need no special case.
    private struct ReducedLatitude {
        let sine: Double
        let cosine: Double

        init(geodetic latitude: Double) {
            let phi = SimulationMath.radians(latitude)
            let y = (1 - f) * sin(phi), x = cos(phi)
            let norm = (x * x + y * y).squareRoot()
            sine = y / norm
            cosine = x / norm
        }
    }

    /// Vincenty's A and B series in u² = cos²α (a² - b²) / b², and the Δσ correction built from them.
    private struct Series {
        let a: Double
        let b: Double

        init(cosSquaredAlpha: Double) {
            let uSquared = cosSquaredAlpha * (VincentyGeodesic.a * VincentyGeodesic.a
                - VincentyGeodesic.b * VincentyGeodesic.b) / (VincentyGeodesic.b * VincentyGeodesic.b)
            a = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
            b = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        }

        func deltaSigma(sigma: Double, sinSigma: Double, cosSigma: Double, cos2SigmaM: Double) -> Double {
            let c2 = cos2SigmaM * cos2SigmaM
            return b * sinSigma * (cos2SigmaM + b / 4 * (cosSigma * (-1 + 2 * c2)
                - b / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * c2)))
        }
    }
}
