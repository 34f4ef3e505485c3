import CGeofence

/// Compares the two engines' hit sets fix by fix. They may differ only near a boundary, where the sphere's error (up to
/// 0.56 % of the distance) and the core's band (2 cm + r / 10000) make either answer acceptable. A difference farther
/// from the boundary than that is a bug in one of them, and is kept with a reproducer.
struct Agreement {
    /// Haversine's worst relative error against the WGS-84 ellipsoid (0.56 %), rounded up.
    static let sphericalTolerance = 0.006
    /// How many unexplained differences to keep for printing; the rest are only counted.
    static let keptExamples = 5

    /// One fence that only one engine reported for a fix.
    struct Difference: CustomStringConvertible {
        let fix: Position
        let fence: Fence
        let fenceIndex: Int
        let reportedByCore: Bool
        let haversineMetres: Double
        let marginMillimetres: UInt32

        var description: String {
            var coreDistance: Int64 = -1
            let status = gf_distance(fix.point, fence.centre.point, &coreDistance)
            let coreText = status == GF_OK ? "\(coreDistance) mm" : String(cString: gf_status_name(status))
            return "fix {\(fix.point.lat), \(fix.point.lon)} and fence #\(fenceIndex) "
                + "{\(fence.centre.point.lat), \(fence.centre.point.lon)} r=\(fence.radiusMillimetres) mm "
                + "margin=\(marginMillimetres) mm: only \(reportedByCore ? "core" : "naive-swift") reports a hit; "
                + "gf_distance = \(coreText), haversine = \(fixed(haversineMetres * 1000, places: 0)) mm"
        }
    }

    private(set) var fixesCompared = 0
    private(set) var disagreeingFixes = 0
    private(set) var unexplainedCount = 0
    private(set) var unexplainedExamples: [Difference] = []

    /// Runs both engines on every fix of `fixes` (untimed) and classifies each difference.
    static func compare(
        core: CoreEngine, naive: inout NaiveHaversineEngine, fences: [Fence], fixes: ArraySlice<Position>,
        marginMillimetres: UInt32
    ) throws(CoreError) -> Agreement {
        var agreement = Agreement()
        let marginMetres = Double(marginMillimetres) / 1000
        for fix in fixes {
            let coreFences = Set(try core.hits(at: fix, marginMillimetres: marginMillimetres).map(\.fenceIndex))
            _ = naive.query(fix, marginMetres: marginMetres)
            let naiveFences = Set(naive.hits.map(\.fenceIndex))
            let differing = coreFences.symmetricDifference(naiveFences)
            agreement.fixesCompared += 1
            guard !differing.isEmpty else { continue }
            agreement.disagreeingFixes += 1
            for fenceIndex in differing.sorted() {
                let difference = Difference(
                    fix: fix, fence: fences[fenceIndex], fenceIndex: fenceIndex,
                    reportedByCore: coreFences.contains(fenceIndex),
                    haversineMetres: naive.distanceMetres(from: fix, toFence: fenceIndex),
                    marginMillimetres: marginMillimetres)
                if !isNearBoundary(difference) {
                    agreement.unexplainedCount += 1
                    if agreement.unexplainedExamples.count < keptExamples {
                        agreement.unexplainedExamples.append(difference)
                    }
                }
            }
        }
        return agreement
    }

    /// Whether the fix is close enough to the fence's decision boundary (radius + margin) that the engines' known
    /// errors explain the difference.
    private static func isNearBoundary(_ difference: Difference) -> Bool {
        let radiusMetres = difference.fence.radiusMetres
        let boundaryMetres = radiusMetres + Double(difference.marginMillimetres) / 1000
        let coreBandMetres = 0.02 + radiusMetres / 10_000
        let allowance = sphericalTolerance * boundaryMetres + coreBandMetres
        return abs(difference.haversineMetres - boundaryMetres) <= allowance
    }
}
