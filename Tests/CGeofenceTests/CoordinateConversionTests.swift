// gf_point_from_degrees and gf_point_to_degrees: nearest rounding with ties away from zero, one spelling of the
// antimeridian, and a lossless round trip from e7.
import CGeofence
import Foundation
import Testing
import GeofencingTestSupport
import GeofencingInputs

@Suite("Degrees <-> 1e-7 degree")
struct CoordinateConversionTests {
    func converted(_ lat: Double, _ lon: Double, sourceLocation: SourceLocation = #_sourceLocation) throws -> gf_point {
        var point = gf_point(lat: 0, lon: 0)
        try requireOK(gf_point_from_degrees(lat, lon, &point), "gf_point_from_degrees(\(lat), \(lon))", sourceLocation: sourceLocation)
        return point
    }

    @Test("The header's worked example: Brisbane GPO")
    func workedExample() throws {
        let point = try converted(-27.4679357, 153.0281038)
        #expect(point.lat == -274_679_357 && point.lon == 1_530_281_038)
    }

    @Test("Rounds to nearest, and exact ties away from zero")
    func roundsToNearestTiesAway() throws {
        // k / 256 degrees is k * 39062.5 e7 exactly (both binary-exact), so these are true ties; 1/256 tells
        // "away from zero" (39063) from "to even" (39062) and from "half up" (-39062 for the negative one).
        let cases: [(degrees: Double, e7: Int32)] = [
            (1.0 / 256, 39_063), (-1.0 / 256, -39_063), (3.0 / 256, 117_188), (-3.0 / 256, -117_188),
            (45 + 1.0 / 256, 450_039_063), (-(45 + 1.0 / 256), -450_039_063),
            (90 - 1.0 / 256, 899_960_938), (-(90 - 1.0 / 256), -899_960_938),
            (0.000_000_04, 0), (0.000_000_06, 1), (-0.000_000_04, 0), (-0.000_000_06, -1),
            (12.345_678_91, 123_456_789), (12.345_678_96, 123_456_790), (-12.345_678_96, -123_456_790),
            (0, 0), (-0.0, 0), (90, 900_000_000), (-90, -900_000_000),
        ]
        for (degrees, e7) in cases {
            #expect(try converted(degrees, 0).lat == e7, "latitude \(degrees)")
            #expect(try converted(0, degrees).lon == e7, "longitude \(degrees)")
        }
        #expect(try converted(0, 180 - 1.0 / 256).lon == 1_799_960_938)
        #expect(try converted(0, -(180 - 1.0 / 256)).lon == -1_799_960_938)
    }

    @Test("Random degrees land on the nearest e7 unit")
    func randomDegreesRoundToNearest() throws {
        var random = SplitMix64(seed: 0xC0_0D5)
        for _ in 0..<100_000 {
            let lat = Double.random(in: -90...90, using: &random)
            let lon = Double.random(in: -180...180, using: &random)
            let point = try converted(lat, lon)
            // fma gives the exact residual degrees * 1e7 - e7. lround(degrees * 1e7) may round the product first,
            // so a residual within 1e-6 of one half is tolerated (that is 1e-13 degree).
            let latResidual = fma(lat, 1e7, -Double(point.lat))
            #expect(abs(latResidual) <= 0.5 + 1e-6, "latitude \(lat) -> \(point.lat)")
            let lonE7 = point.lon == -GF_LON_MAX_E7 && lon > 0 ? Double(GF_LON_MAX_E7) : Double(point.lon)
            #expect(abs(fma(lon, 1e7, -lonE7)) <= 0.5 + 1e-6, "longitude \(lon) -> \(point.lon)")
        }
    }

    @Test("+180 degrees, and anything rounding to it, becomes -1800000000")
    func antimeridianHasOneSpelling() throws {
        #expect(try converted(0, 180).lon == -GF_LON_MAX_E7)
        #expect(try converted(0, -180).lon == -GF_LON_MAX_E7)
        #expect(try converted(45, 179.999_999_96).lon == -GF_LON_MAX_E7)
        #expect(try converted(45, -179.999_999_96).lon == -GF_LON_MAX_E7)
        #expect(try converted(45, 179.999_999_94).lon == GF_LON_MAX_E7 - 1)
    }

    @Test("gf_point_to_degrees is exact and converts back to the same point")
    func roundTrip() throws {
        var random = SplitMix64(seed: 0x70_0D5)
        var points = [
            gf_point(lat: GF_LAT_MAX_E7, lon: GF_LON_MAX_E7 - 1), gf_point(lat: -GF_LAT_MAX_E7, lon: -GF_LON_MAX_E7),
            gf_point(lat: 1, lon: -1), gf_point(lat: -274_679_357, lon: 1_530_281_038),
        ]
        for _ in 0..<100_000 {
            points.append(gf_point(
                lat: .random(in: -GF_LAT_MAX_E7...GF_LAT_MAX_E7, using: &random),
                lon: .random(in: -GF_LON_MAX_E7..<GF_LON_MAX_E7, using: &random)))
        }
        for point in points {
            var lat = Double.nan
            var lon = Double.nan
            gf_point_to_degrees(point, &lat, &lon)
            // "Exact to the double's precision": the correctly rounded quotient.
            #expect(lat == Double(point.lat) / 1e7 && lon == Double(point.lon) / 1e7, "\(point.text) -> \(lat), \(lon)")
            let back = try converted(lat, lon)
            #expect(back.lat == point.lat && back.lon == point.lon, "\(point.text) -> \(lat), \(lon) -> \(back.text)")
        }
        // +180 converts to degrees as 180 and comes back as the one spelling, -180.
        var lon = 0.0
        gf_point_to_degrees(gf_point(lat: 0, lon: GF_LON_MAX_E7), nil, &lon)
        #expect(lon == 180)
        #expect(try converted(0, lon).lon == -GF_LON_MAX_E7)
        // Either output alone.
        var lat = 0.0
        gf_point_to_degrees(gf_point(lat: -5, lon: 7), &lat, nil)
        #expect(lat == -5e-7)
    }
}
