// The claims of the DISTANCE section of include/geofence.h, checked on the two kinds of geodesic whose exact WGS-84
// length needs no library: the equator (a * delta-longitude) and the meridians (the meridian arc series). They reach
// past the fixture's 100 km to check the stated growth of the error beyond it too.
import CGeofence
import Foundation
import Testing

@Suite("gf_distance against exact arcs of the equator and the meridians")
struct DistanceBoundTests {
    /// The header (DISTANCE): "|error| <= 10 mm for s <= 50 km and <= 20 mm for s <= 100 km".
    static func headerBudgetMM(atDistanceMM distance: Double) -> Double {
        distance <= 50_000_000 ? 10 : 20
    }

    static let semiMajorAxisMM = 6_378_137_000.0
    static let flattening = 1 / 298.257_223_563

    /// The error a hit may carry at distance d from a centre: a hit at d comes from a fence of radius r >= d - 50 km
    /// (the largest margin), whose band is 20 mm + r / 10000. So up to 50 km it is the smallest band, 20 mm.
    static func smallestBandMM(atDistanceMM distance: Double) -> Double {
        20 + max(0, distance - Double(GF_MARGIN_MAX_MM)) / 10_000
    }

    /// Length of the meridian from the equator to `latitudeDegrees`, in mm: Helmert's series in the third flattening
    /// n, to n^4 (the first term left out is about a * n^5 = 6 micrometres).
    static func meridianArcMM(latitudeDegrees: Double) -> Double {
        let n = flattening / (2 - flattening)
        let phi = latitudeDegrees * .pi / 180
        let scale = semiMajorAxisMM / (1 + n) * (1 + n * n / 4 + n * n * n * n / 64)
        let series = phi
            - (3 * n / 2 - 9 * n * n * n / 16) * sin(2 * phi)
            + (15 * n * n / 16 - 15 * n * n * n * n / 32) * sin(4 * phi)
            - (35 * n * n * n / 48) * sin(6 * phi)
            + (315 * n * n * n * n / 512) * sin(8 * phi)
        return scale * series
    }

    /// One measurement: the core's distance against the exact one.
    struct Sample {
        let from: gf_point
        let to: gf_point
        let core: Int64
        let exact: Double
        var error: Double { Double(core) - exact }
        var text: String { "gf_distance(\(from.text), \(to.text)) = \(core) mm, exact \(String(format: "%.3f", exact)) mm" }
    }

    /// Along the equator the geodesic is the equator itself for spans under (1 - f) * 180 degrees.
    static func equatorSamples() throws -> [Sample] {
        let origin = gf_point(lat: 0, lon: 1_795_000_000)
        var samples: [Sample] = []
        // Spans from 1e-7 degree (1.1 cm) to 179 degrees, growing by a seventh, crossing the antimeridian.
        var spanE7: Int64 = 1
        while spanE7 <= 1_790_000_000 {
            var lon = Int64(origin.lon) + spanE7
            if lon >= Int64(GF_LON_MAX_E7) { lon -= 2 * Int64(GF_LON_MAX_E7) }
            let end = gf_point(lat: 0, lon: Int32(lon))
            let exact = semiMajorAxisMM * Double(spanE7) / 1e7 * .pi / 180
            samples.append(Sample(from: origin, to: end, core: try coreDistance(origin, end), exact: exact))
            spanE7 = spanE7 < 10 ? spanE7 + 1 : spanE7 + spanE7 / 7
        }
        return samples
    }

    /// Along meridians, northwards from latitudes where the meridian's curvature differs most from the core's mean R
    /// (the equator, where it is smallest, and near 85 degrees, where it is largest), up to 100 km.
    static func meridianSamples() throws -> [Sample] {
        var samples: [Sample] = []
        for startDegrees in [-85.0, -60, -45, -30, -0.45, 0, 30, 45, 60, 84] {
            let start = gf_point(lat: Int32(startDegrees * 1e7), lon: 123_456_789)
            // Spans from 1e-7 degree to 0.9 degree (100 km), growing by a fifth.
            var spansE7: [Int32] = Array(1...10)
            while spansE7.last! < 9_000_000 { spansE7.append(min(spansE7.last! + spansE7.last! / 5, 9_000_000)) }
            for spanE7 in spansE7 {
                let end = gf_point(lat: start.lat + spanE7, lon: start.lon)
                let exact = meridianArcMM(latitudeDegrees: Double(end.lat) / 1e7)
                    - meridianArcMM(latitudeDegrees: Double(start.lat) / 1e7)
                samples.append(Sample(from: start, to: end, core: try coreDistance(start, end), exact: exact))
            }
        }
        return samples
    }

    @Test("The meridian arc series agrees with known values")
    func meridianSeriesIsRight() {
        // Equator to pole and equator to 45 degrees on WGS-84, as GeographicLib computes them.
        #expect(abs(Self.meridianArcMM(latitudeDegrees: 90) - 10_001_965_729.3) < 1)
        #expect(abs(Self.meridianArcMM(latitudeDegrees: 45) - 4_984_944_377.98) < 1)
    }

    @Test("Within the smallest band a hit at that distance may carry, up to 100 km, and monotone")
    func withinTheBandAndMonotone() throws {
        for samples in [try Self.equatorSamples(), try Self.meridianSamples()] {
            var previous: Sample?
            for sample in samples {
                if let previous, previous.from.isSame(as: sample.from) {
                    #expect(sample.core >= previous.core, "not monotone: \(sample.text) after \(previous.text)")
                }
                previous = sample
                guard sample.exact <= 100_000_000 else { continue }
                let bound = Self.smallestBandMM(atDistanceMM: sample.exact)
                #expect(abs(sample.error) <= bound, "off by \(sample.error) mm, more than \(bound) mm: \(sample.text)")
            }
        }
    }

    @Test("The header's 10 mm up to 50 km and 20 mm up to 100 km, and 0.3 m at 670 km")
    func headerClaims() throws {
        let near = try (Self.equatorSamples() + Self.meridianSamples()).filter { $0.exact <= 100_000_000 }
        let far = try Self.equatorSamples().filter { $0.exact > 100_000_000 && $0.exact <= 700_000_000 }
        let worstNear = near.max { abs($0.error) < abs($1.error) }!
        let worstFar = far.max { abs($0.error) < abs($1.error) }!
        print("""
            exact arcs: worst error up to 100 km \(String(format: "%+.3f", worstNear.error)) mm at \(worstNear.text)
              100 .. 700 km (equator): worst \(String(format: "%+.3f", worstFar.error)) mm at \(worstFar.text)
            """)
        let beyondBudget = near.filter { abs($0.error) > Self.headerBudgetMM(atDistanceMM: $0.exact) }.map(\.text)
        #expect(beyondBudget.isEmpty, "\(beyondBudget.count) beyond the header's budget, e.g. \(beyondBudget.prefix(3))")
        // "+0.3 m at 670 km along the equator": allow the stated figure plus a third.
        #expect(abs(worstFar.error) <= 400, "beyond 100 km the error is \(worstFar.error) mm at \(worstFar.text)")
    }
}
