// The accuracy contract of include/geofence.h (THE BAND), checked against Karney's WGS-84 geodesic: the fixture
// written by scripts/gen_accuracy_vectors.py.
import CGeofence
import Foundation
import Testing
import GeofencingTestSupport
import GeofencingInputs

@Suite("Accuracy against the WGS-84 geodesic")
struct AccuracyTests {
    /// The largest |value| seen so far and the input it came from, for the printed summary.
    struct Worst {
        var value = 0.0
        var input = "none"

        mutating func consider(_ candidate: Double, _ input: @autoclosure () -> String) {
            if abs(candidate) > abs(value) {
                value = candidate
                self.input = input()
            }
        }
    }

    @Test("gf_distance within the band, and no misclassification outside it, on every fixture row")
    func fixtureRowsStayWithinTheBand() throws {
        let vectors = try AccuracyVector.loadFixture()
        // The generator writes about 11,700 rows; far fewer means the fixture was truncated or mangled.
        #expect(vectors.count > 10_000, "fixture has only \(vectors.count) rows")

        var worstError = Worst()
        var worstErrorPerBand = Worst()
        var worstErrorSmallFences = Worst()
        var distanceOutsideBand = 0
        var beyondHeaderBudget: [String] = []
        var misclassified = 0
        var classifiedRows = 0
        var fence: (table: FenceTable, handle: gf_handle, centre: gf_point, radiusMM: UInt32)?

        for vector in vectors {
            let band = band(radiusMM: vector.radiusMM)

            // Distance: the core's value against the geodesic between the same e7 points.
            let distance = try coreDistance(vector.centre, vector.probe)
            let error = Double(distance) - vector.geodesicMM
            worstError.consider(error, "\(vector) core \(distance) mm")
            worstErrorPerBand.consider(error / band, "\(vector) core \(distance) mm, band \(band) mm")
            if vector.radiusMM <= 100_000 {
                worstErrorSmallFences.consider(error, "\(vector) core \(distance) mm")
            }
            if abs(error) > DistanceBoundTests.headerBudgetMM(atDistanceMM: vector.geodesicMM)
                && vector.geodesicMM <= 100_000_000 {
                beyondHeaderBudget.append("\(vector) core \(distance) mm, error \(format(error)) mm")
            }
            if abs(error) > band {
                distanceOutsideBand += 1
                Issue.record("gf_distance off by \(error) mm (band \(band) mm): \(vector) core \(distance) mm")
            }

            // Classification: the fence alone in a table (rows of one fence are adjacent in the fixture).
            if fence.map({ !$0.centre.isSame(as: vector.centre) || $0.radiusMM != vector.radiusMM }) ?? true {
                let table = try FenceTable(capacity: 1)
                let handle = try table.add(vector.centre, radiusMM: vector.radiusMM)
                fence = (table, handle, vector.centre, vector.radiusMM)
            }
            guard let fence else { continue }
            let hits = try fence.table.query(vector.probe, marginMM: 0)
            #expect(hits.count <= 1 && hits.allSatisfy { $0.handle == fence.handle }, "\(vector): hits \(hits)")
            let hit = hits.first

            let trueSignedDistance = vector.geodesicMM - Double(vector.radiusMM)
            if trueSignedDistance <= -band || trueSignedDistance >= band {
                classifiedRows += 1
                let mustHit = trueSignedDistance <= -band
                let isHit = hit.map { $0.distanceMM <= 0 } ?? false
                if isHit != mustHit {
                    misclassified += 1
                    Issue.record("misclassified outside the band: \(vector), hits \(hits), must hit: \(mustHit)")
                }
            }
            if let hit {
                let hitError = Double(hit.distanceMM) - trueSignedDistance
                #expect(abs(hitError) <= band, "hit distance off by \(hitError) mm: \(vector), hit \(hit)")
            }

            // The query must use exactly gf_distance(fix, centre), as the header promises.
            let coreSignedDistance = try coreDistance(vector.probe, vector.centre) - Int64(vector.radiusMM)
            let expectedHits = coreSignedDistance <= 0 ? [Hit(handle: fence.handle, distanceMM: Int32(coreSignedDistance))] : []
            #expect(hits == expectedHits, "query disagrees with gf_distance: \(vector)")
        }

        print("""
            accuracy fixture: \(vectors.count) rows, \(classifiedRows) outside the band, \(misclassified) misclassified, \
            \(distanceOutsideBand) distances beyond the band
              worst signed distance error: \(format(worstError.value)) mm at \(worstError.input)
              worst error relative to the band: \(format(worstErrorPerBand.value)) at \(worstErrorPerBand.input)
              worst error for r <= 100 m: \(format(worstErrorSmallFences.value)) mm at \(worstErrorSmallFences.input)
              rows beyond the header's budget (10 mm to 50 km, 20 mm to 100 km): \(beyondHeaderBudget.count)
            """)
        #expect(misclassified == 0)
        #expect(distanceOutsideBand == 0)
        #expect(classifiedRows > 5_000, "the fixture should put most rows outside the band")
        #expect(beyondHeaderBudget.isEmpty, "beyond the header's budget: \(beyondHeaderBudget.prefix(5))")
    }

    @Test("gf_distance is zero from a point to itself, and symmetric")
    func distanceIsZeroToItselfAndSymmetric() throws {
        var random = SplitMix64(seed: 0x5EED_0001)
        var worstAsymmetry: Int64 = 0
        var worstPair = "none"
        for index in 0..<20_000 {
            let a = gf_point(
                lat: Int32.random(in: -GF_LAT_MAX_E7...GF_LAT_MAX_E7, using: &random),
                lon: Int32.random(in: -GF_LON_MAX_E7...GF_LON_MAX_E7, using: &random))
            #expect(try coreDistance(a, a) == 0, "gf_distance(\(a.text), itself)")
            // Mostly pairs within a fence's reach; every tenth anywhere on earth.
            let b = index % 10 == 0
                ? gf_point(
                    lat: Int32.random(in: -GF_LAT_MAX_E7...GF_LAT_MAX_E7, using: &random),
                    lon: Int32.random(in: -GF_LON_MAX_E7...GF_LON_MAX_E7, using: &random))
                : TestGeometry.offset(
                    a, metres: random.logUniform(0.001...100_000), azimuthDegrees: .random(in: 0..<360, using: &random))
            let asymmetry = abs(try coreDistance(a, b) - coreDistance(b, a))
            if asymmetry > worstAsymmetry {
                worstAsymmetry = asymmetry
                worstPair = "\(a.text) and \(b.text)"
            }
        }
        print("gf_distance symmetry: worst |d(a,b) - d(b,a)| = \(worstAsymmetry) mm (\(worstPair))")
        // The header promises no symmetry; 1 mm of rounding asymmetry is tolerated and reported above.
        #expect(worstAsymmetry <= 1, "asymmetric by \(worstAsymmetry) mm: \(worstPair)")
    }

    @Test("+180 and -180 degrees are one meridian")
    func bothSpellingsOfTheAntimeridianAreOnePlace() throws {
        for lat in [-900_000_000, -850_000_000, -1, 0, 452_000_000, 900_000_000] as [Int32] {
            let east = gf_point(lat: lat, lon: GF_LON_MAX_E7)
            let west = gf_point(lat: lat, lon: -GF_LON_MAX_E7)
            #expect(try coreDistance(east, west) == 0, "latitude \(lat)")
            let nearby = gf_point(lat: lat == 900_000_000 ? lat - 1_000 : lat + 1_000, lon: 1_799_999_000)
            #expect(try coreDistance(east, nearby) == coreDistance(west, nearby), "latitude \(lat)")
        }
    }

    private func format(_ value: Double) -> String {
        String(format: "%+.3f", value)
    }
}
