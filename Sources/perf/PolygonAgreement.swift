import CGeofence

/// Compares one peer's inside sets with the core's, fix by fix, on the same shapes and fixes (margin 0). A difference
/// is a shape only one of them says the fix is inside. It is allowed only near that shape's boundary, measured by the
/// core's signed distance:
///  - polygons (geos-prepared, naive-swift): within `polygonAllowanceMillimetres` (1 cm). Both peers decide the same
///    planar point-in-polygon question on the same e7 vertices in Double degrees, so they may differ only for a fix
///    within rounding of an edge (a point exactly on an edge included: GEOS's "contains" leaves it out);
///  - the corridor (naive-swift): within 0.6 % of the half-width plus 3 cm: the sphere's error at the edge (0.56 %),
///    plus the core's distance error (20 mm + 1e-7 d).
/// A difference outside its allowance fails the run; every difference is counted and a few are listed.
struct PolygonAgreement {
    static let polygonAllowanceMillimetres: Int32 = 10
    /// How far from the boundary the core is asked for a distance when listing a difference (a 1 km query margin).
    static let reachMillimetres: UInt32 = 1_000_000
    static let keptExamples = 3

    struct Difference: CustomStringConvertible {
        let peer: PolygonEngineName
        let fix: gf_point
        let shapeName: String
        let reportedByCore: Bool
        /// The core's signed distance to the shape's boundary, mm (nil: farther than `reachMillimetres`).
        let coreDistanceMillimetres: Int32?

        var description: String {
            "fix {\(fix.lat), \(fix.lon)} \(shapeName): only \(reportedByCore ? "core" : peer.rawValue) says inside; "
                + "core's signed distance to the boundary "
                + (coreDistanceMillimetres.map { "\($0) mm" } ?? "beyond \(reachMillimetres / 1000) m")
        }
    }

    let peer: PolygonEngineName
    let allowanceMillimetres: Int32
    private(set) var fixesCompared = 0
    private(set) var disagreeingFixes = 0
    private(set) var differencesWithinAllowance = 0
    private(set) var examplesWithinAllowance: [Difference] = []
    private(set) var unexplainedCount = 0
    private(set) var unexplainedExamples: [Difference] = []

    /// The allowance for a naive-swift corridor difference: the sphere's 0.6 % of the half-width plus 3 cm.
    static func corridorAllowanceMillimetres(_ corridor: CorridorShape) -> Int32 {
        Int32((0.006 * Double(corridor.halfWidthMillimetres)).rounded(.up)) + 30
    }

    /// Runs the core and the peer (through `peerInside`: fix index -> shape indices, ascending) on `fixIndices`,
    /// untimed, and classifies each difference.
    static func compare<Failure: Error>(
        peer: PolygonEngineName, allowanceMillimetres: Int32, core: PolygonCoreEngine, shapeNames: [String],
        fixes: [gf_point], fixIndices: Range<Int>, peerInside: (Int) throws(Failure) -> [Int]
    ) throws -> PolygonAgreement {
        var agreement = PolygonAgreement(peer: peer, allowanceMillimetres: allowanceMillimetres)
        for index in fixIndices {
            let coreShapes = try core.insideShapeIndices(at: fixes[index])
            let peerShapes = try peerInside(index)
            agreement.fixesCompared += 1
            guard coreShapes != peerShapes else { continue }
            agreement.disagreeingFixes += 1
            let coreSet = Set(coreShapes)
            for shape in coreSet.symmetricDifference(peerShapes).sorted() {
                let distance = try core.signedDistance(at: fixes[index], toShape: shape,
                                                       reachMillimetres: reachMillimetres)
                agreement.classify(Difference(
                    peer: peer, fix: fixes[index], shapeName: shapeNames[shape],
                    reportedByCore: coreSet.contains(shape), coreDistanceMillimetres: distance))
            }
        }
        return agreement
    }

    private mutating func classify(_ difference: Difference) {
        if let distance = difference.coreDistanceMillimetres, abs(distance) <= allowanceMillimetres {
            differencesWithinAllowance += 1
            if examplesWithinAllowance.count < Self.keptExamples { examplesWithinAllowance.append(difference) }
        } else {
            unexplainedCount += 1
            if unexplainedExamples.count < Self.keptExamples { unexplainedExamples.append(difference) }
        }
    }
}
