import CGeofence

/// Compares one peer's hit sets with the core's, fix by fix, on the same fences and fixes. Every difference is a
/// fence that only one of them reports for a fix; it is allowed only near that fence's decision boundary
/// (radius + margin), where the two may legitimately decide differently:
///  - peers with the core's own exact test (c-scan, geos-strtree, boost-rstar, boost-quadratic: gf_distance after a
///    box reject; s2-cell-index: after a cell lookup): within the core's band, 2 cm + r / 10000, measured with
///    gf_distance. As they compute the very same distance, any difference at all means a prefilter rejected a fence
///    it should not have;
///  - naive-swift (spherical haversine): within the band plus haversine's error, 0.6 % of the boundary distance.
/// A difference outside its allowance fails the run; those within it are counted and a few listed.
struct Agreement {
    /// Haversine's worst relative error against the WGS-84 ellipsoid (0.56 %), rounded up.
    static let sphericalTolerance = 0.006
    /// How many differences of each kind to keep for printing; the rest are only counted.
    static let keptExamples = 3

    /// One fence that only one engine reported for a fix.
    struct Difference: CustomStringConvertible {
        let peer: EngineName
        let fix: Position
        let fence: Fence
        let fenceIndex: Int
        let reportedByCore: Bool
        let marginMillimetres: UInt32
        /// gf_distance from the fix to the centre, mm (nil if it refused the fix).
        let coreDistanceMillimetres: Int64?
        let haversineMetres: Double

        var description: String {
            let boundary = Int64(fence.radiusMillimetres) + Int64(marginMillimetres)
            let coreText = coreDistanceMillimetres.map { "\($0) mm (boundary \(boundary) mm, off by \($0 - boundary))" }
                ?? "refused"
            return "fix {\(fix.point.lat), \(fix.point.lon)} fence #\(fenceIndex) "
                + "{\(fence.centre.point.lat), \(fence.centre.point.lon)} r=\(fence.radiusMillimetres) mm "
                + "margin=\(marginMillimetres) mm: only \(reportedByCore ? "core" : peer.rawValue) reports it; "
                + "gf_distance \(coreText), haversine \(fixed(haversineMetres * 1000, places: 0)) mm"
        }
    }

    let peer: EngineName
    private(set) var fixesCompared = 0
    private(set) var disagreeingFixes = 0
    private(set) var differencesWithinAllowance = 0
    private(set) var examplesWithinAllowance: [Difference] = []
    private(set) var unexplainedCount = 0
    private(set) var unexplainedExamples: [Difference] = []

    /// Runs the core and the peer (through `peerHits`: fix index -> fence indices, ascending) on `fixIndices` of
    /// `fixes`, untimed, and classifies each difference.
    static func compare<Failure: Error>(
        peer: EngineName, core: CoreEngine, fences: [Fence], fixes: [Position], fixIndices: Range<Int>,
        marginMillimetres: UInt32, peerHits: (Int) throws(Failure) -> [Int]
    ) throws -> Agreement {
        var agreement = Agreement(peer: peer)
        for index in fixIndices {
            let fix = fixes[index]
            let coreFences = try core.hits(at: fix, marginMillimetres: marginMillimetres).map(\.fenceIndex)
            let peerFences = try peerHits(index)
            agreement.fixesCompared += 1
            guard coreFences != peerFences else { continue }
            let coreSet = Set(coreFences)
            let differing = coreSet.symmetricDifference(peerFences).sorted()
            agreement.disagreeingFixes += 1
            for fenceIndex in differing {
                agreement.classify(Difference(
                    peer: peer, fix: fix, fence: fences[fenceIndex], fenceIndex: fenceIndex,
                    reportedByCore: coreSet.contains(fenceIndex), marginMillimetres: marginMillimetres,
                    coreDistanceMillimetres: coreDistance(fix, fences[fenceIndex]),
                    haversineMetres: haversineMetres(fix, fences[fenceIndex])))
            }
        }
        return agreement
    }

    private mutating func classify(_ difference: Difference) {
        if isWithinAllowance(difference) {
            differencesWithinAllowance += 1
            if examplesWithinAllowance.count < Self.keptExamples { examplesWithinAllowance.append(difference) }
        } else {
            unexplainedCount += 1
            if unexplainedExamples.count < Self.keptExamples { unexplainedExamples.append(difference) }
        }
    }

    /// Whether the fix is close enough to the fence's decision boundary that the engines' known errors explain it.
    private func isWithinAllowance(_ difference: Difference) -> Bool {
        let radiusMetres = difference.fence.radiusMetres
        let boundaryMetres = radiusMetres + Double(difference.marginMillimetres) / 1000
        let bandMetres = 0.02 + radiusMetres / 10_000
        switch peer {
        case .naiveSwift:
            let allowance = Self.sphericalTolerance * boundaryMetres + bandMetres
            return abs(difference.haversineMetres - boundaryMetres) <= allowance
        default:
            guard let distance = difference.coreDistanceMillimetres else { return false }
            return abs(Double(distance) / 1000 - boundaryMetres) <= bandMetres
        }
    }

    private static func coreDistance(_ fix: Position, _ fence: Fence) -> Int64? {
        var millimetres: Int64 = 0
        return gf_distance(fix.point, fence.centre.point, &millimetres) == GF_OK ? millimetres : nil
    }

    private static func haversineMetres(_ fix: Position, _ fence: Fence) -> Double {
        NaiveHaversineEngine(fences: [fence]).distanceMetres(from: fix, toFence: 0)
    }
}
