// gf_query must return exactly what checking every fence with gf_distance returns: the spatial index may speed the
// search up but never change the answer. Checked over layouts where grid indexes tend to break: the antimeridian,
// high latitudes (cells shrink in longitude), dense clusters, and radii from 1 m to 50 km in one table.
import CGeofence
import Foundation
import Testing
import GeofencingTestSupport
import GeofencingInputs

@Suite("gf_query against brute force")
struct IndexVersusBruteForceTests {
    static let fenceCount = 2_000
    static let randomFixCount = 1_000
    static let boundaryFixCount = 1_000
    static let anywhereFixCount = 100
    static let smallMargins: [UInt32] = [0, 5_000, 100_000]
    static let largeMargins: [UInt32] = [5_000_000, GF_MARGIN_MAX_MM]

    enum Distribution: String, CaseIterable, Sendable {
        case uniform
        /// About 20 clusters with a Gaussian spread of 2 km: many fences share index cells.
        case clustered
    }

    /// A fix and the margins to query it with.
    struct Probe {
        let fix: gf_point
        let margins: [UInt32]
    }

    @Test("Hit sets equal brute force", arguments: TestRegion.allCases, Distribution.allCases)
    func hitSetsEqualBruteForce(region: TestRegion, distribution: Distribution) throws {
        var random = SplitMix64(seed: 0x1DE7_0000 &+ UInt64(region.caseIndex * 8 + distribution.caseIndex))
        let table = try FenceTable(capacity: UInt32(Self.fenceCount))
        let fences = try Self.fences(in: region, distribution, table: table, using: &random)
        try requireOK(gf_table_verify(table.pointer), "gf_table_verify after building \(region) \(distribution)")

        let probes = try Self.probes(around: fences, in: region, using: &random)
        var queries = 0
        var mismatches = 0
        var hitsSeen = 0
        for probe in probes {
            let distances = try BruteForce.signedDistances(probe.fix, fences: fences)
            for margin in probe.margins {
                let expected = BruteForce.hits(signedDistances: distances, marginMM: margin, fences: fences)
                let actual = try table.query(probe.fix, marginMM: margin)
                queries += 1
                hitsSeen += expected.count
                if Set(actual.map(\.handle)).count != actual.count {
                    Issue.record("\(region) \(distribution): a handle appears twice for fix \(probe.fix.text) margin \(margin)")
                }
                if actual.sorted() != expected {
                    mismatches += 1
                    if mismatches <= 10 {
                        Issue.record("""
                            \(region) \(distribution): fix \(probe.fix.text) margin \(margin) mm: \
                            missing \(Self.describe(Set(expected).subtracting(actual), fences)), \
                            extra \(Self.describe(Set(actual).subtracting(expected), fences))
                            """)
                    }
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(queries) queries differ")
        // Guards against a layout so sparse that the comparison proves nothing.
        #expect(hitsSeen > queries, "only \(hitsSeen) hits over \(queries) queries")
    }

    /// Fills the table with `fenceCount` fences of radius 1 m .. 50 km (log-uniform).
    static func fences(
        in region: TestRegion, _ distribution: Distribution, table: FenceTable, using random: inout SplitMix64
    ) throws -> [FenceRecord] {
        let clusterCentres = (0..<20).map { _ in region.randomPoint(using: &random) }
        return try (0..<fenceCount).map { _ in
            let centre: gf_point
            switch distribution {
            case .uniform:
                centre = region.randomPoint(using: &random)
            case .clustered:
                let east = random.gaussian(standardDeviation: 2_000)
                let north = random.gaussian(standardDeviation: 2_000)
                centre = TestGeometry.offset(
                    clusterCentres.randomElement(using: &random)!, metres: (east * east + north * north).squareRoot(),
                    azimuthDegrees: atan2(east, north) * 180 / .pi)
            }
            let fenceCentre = TestGeometry.clampedToFenceLatitude(centre)
            let radius = UInt32(random.logUniform(Double(GF_RADIUS_MIN_MM)...Double(GF_RADIUS_MAX_MM)).rounded())
            let handle = try table.add(fenceCentre, radiusMM: radius)
            return FenceRecord(handle: handle, centre: fenceCentre, radiusMM: radius)
        }
    }

    /// Fixes in and around the region, fixes within centimetres of a fence boundary widened by a margin (where an
    /// index that covers too few cells loses hits), fences' own centres, and fixes anywhere on earth (poles included).
    ///
    /// Every fix is queried with the small margins and every other one with 5 km and 50 km too: a large margin probes
    /// more index cells, which makes those queries the slow part of this test in a debug build.
    static func probes(
        around fences: [FenceRecord], in region: TestRegion, using random: inout SplitMix64
    ) throws -> [Probe] {
        var fixes = (0..<randomFixCount).map { _ in region.randomPoint(scale: 1.3, using: &random) }
        fixes += fences.prefix(50).map(\.centre)
        fixes += (0..<anywhereFixCount).map { _ in
            gf_point(
                lat: Int32.random(in: -GF_LAT_MAX_E7...GF_LAT_MAX_E7, using: &random),
                lon: Int32.random(in: -GF_LON_MAX_E7...GF_LON_MAX_E7, using: &random))
        }
        fixes += [gf_point(lat: GF_LAT_MAX_E7, lon: 0), gf_point(lat: -GF_LAT_MAX_E7, lon: GF_LON_MAX_E7)]
        var probes = fixes.enumerated().map { index, fix in
            Probe(fix: fix, margins: smallMargins + (index % 2 == 0 ? largeMargins : []))
        }
        for _ in 0..<boundaryFixCount {
            let fence = fences.randomElement(using: &random)!
            let margin = (smallMargins + largeMargins).randomElement(using: &random)!
            let target = Double(fence.radiusMM) + Double(margin) + .random(in: -30...30, using: &random)
            let fix = try TestGeometry.pointAtCoreDistance(target, from: fence.centre, using: &random)
            probes.append(Probe(fix: fix, margins: margin == 0 ? [0] : [0, margin]))
        }
        return probes
    }

    static func describe(_ hits: Set<Hit>, _ fences: [FenceRecord]) -> String {
        let byHandle = Dictionary(uniqueKeysWithValues: fences.map { ($0.handle, $0) })
        return "[" + hits.sorted().map { hit in
            let fence = byHandle[hit.handle]
            return "\(hit) (centre \(fence?.centre.text ?? "?"), r \(fence?.radiusMM ?? 0))"
        }.joined(separator: ", ") + "]"
    }
}
