// The simulator moves the vehicle along WGS-84 geodesics: check them against published and independent values.
import Foundation
import Geofencing
@testable import GeofencingInputs
import Testing

@Suite struct SimulatorGeodesicTests {
    /// Degrees from degrees, minutes and seconds.
    private static func dms(_ degrees: Double, _ minutes: Double, _ seconds: Double) -> Double {
        let magnitude = abs(degrees) + minutes / 60 + seconds / 3600
        return degrees < 0 ? -magnitude : magnitude
    }

    // Vincenty's example as published by Geoscience Australia: Flinders Peak to Buninyong.
    private let flindersPeak = Coordinate(latitude: dms(-37, 57, 3.72030), longitude: dms(144, 25, 29.52440))
    private let buninyong = Coordinate(latitude: dms(-37, 39, 10.15610), longitude: dms(143, 55, 35.38390))
    private let publishedDistance = 54_972.271
    private let publishedInitialAzimuth = dms(306, 52, 5.37)
    /// Published as the reverse azimuth 127°10'25.07"; the azimuth of travel at Buninyong is 180° more.
    private let publishedFinalAzimuth = dms(307, 10, 25.07)

    @Test func inverseMatchesVincentysPublishedExample() throws {
        let line = try #require(VincentyGeodesic.inverse(from: flindersPeak, to: buninyong))
        #expect(abs(line.distance - publishedDistance) < 0.001)
        let initial = (line.initialAzimuth * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        let final = (line.finalAzimuth * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        #expect(abs(initial - publishedInitialAzimuth) * 3600 < 0.01)  // published to 0.01"
        #expect(abs(final - publishedFinalAzimuth) * 3600 < 0.01)
    }

    @Test func directMatchesVincentysPublishedExample() {
        let destination = VincentyGeodesic.direct(
            from: flindersPeak, azimuth: publishedInitialAzimuth * .pi / 180, distance: publishedDistance)
        // The azimuth is published to 0.005" (1.3 mm across 55 km), so agree to 1e-4" (3 mm).
        #expect(abs(destination.coordinate.latitude - buninyong.latitude) * 3600 < 1e-4)
        #expect(abs(destination.coordinate.longitude - buninyong.longitude) * 3600 < 1e-4)
    }

    /// For short lines the arc exceeds the straight chord through the ellipsoid by about c³ / (24 R²): under
    /// 1e-5 m for 2 km. The chord comes from ECEF coordinates, a computation that shares nothing with Vincenty's.
    @Test func shortLinesAgreeWithTheECEFChord() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            let start = Coordinate(latitude: random.uniform(in: -85...85), longitude: random.uniform(in: -180...180))
            let end = SimulatorFixtures.point(
                from: start, azimuth: random.uniform(in: 0...360), distance: random.uniform(in: 1...2000))
            let arc = SimulatorFixtures.distance(start, end)
            let chord = Self.chord(start, end)
            #expect(arc - chord > -1e-6 && arc - chord < 2e-5, "\(start) -> \(end): arc \(arc), chord \(chord)")
        }
    }

    @Test func directInvertsInverse() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let start = Coordinate(latitude: random.uniform(in: -80...80), longitude: random.uniform(in: -180...180))
            let end = Coordinate(latitude: start.latitude + random.uniform(in: -4...4),
                                 longitude: SimulationMath.normalizedLongitude(start.longitude + random.uniform(in: -4...4)))
            let line = try #require(VincentyGeodesic.inverse(from: start, to: end))
            let back = VincentyGeodesic.direct(from: start, azimuth: line.initialAzimuth, distance: line.distance)
            #expect(abs(back.coordinate.latitude - end.latitude) < 1e-9)
            #expect(abs(SimulationMath.normalizedLongitude(back.coordinate.longitude - end.longitude)) < 1e-9)
            #expect(abs(SimulationMath.normalizedLongitude(
                (back.azimuth - line.finalAzimuth) * 180 / .pi)) < 1e-7)
        }
    }

    @Test func segmentsAcrossTheAntimeridianAreShort() throws {
        let west = Coordinate(latitude: -17.0, longitude: 179.999)
        let east = Coordinate(latitude: -17.0, longitude: -179.999)
        let line = try #require(VincentyGeodesic.inverse(from: west, to: east))
        #expect(abs(line.distance - Self.chord(west, east)) < 1e-6)
        #expect(line.distance < 250)
    }

    @Test func nearlyAntipodalPointsAreRefusedNotGuessed() throws {
        let start = Coordinate(latitude: 0.5, longitude: 0)
        let end = Coordinate(latitude: -0.5, longitude: 179.7)
        #expect(VincentyGeodesic.inverse(from: start, to: end) == nil)
        #expect(throws: SimulationError.nearlyAntipodalSegment(index: 0)) {
            try SimulatedRoute(polyline: [start, end])
        }
    }

    /// Straight-line distance between two points on the ellipsoid, through Earth-centred Cartesian coordinates.
    private static func chord(_ a: Coordinate, _ b: Coordinate) -> Double {
        func ecef(_ point: Coordinate) -> (Double, Double, Double) {
            let semiMajor = 6_378_137.0, eccentricitySquared = 0.006_694_379_990_141_317
            let phi = point.latitude * .pi / 180, lambda = point.longitude * .pi / 180
            let n = semiMajor / (1 - eccentricitySquared * sin(phi) * sin(phi)).squareRoot()
            return (n * cos(phi) * cos(lambda), n * cos(phi) * sin(lambda), n * (1 - eccentricitySquared) * sin(phi))
        }
        let p = ecef(a), q = ecef(b)
        return ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
    }
}
