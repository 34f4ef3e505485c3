import CGeofence
import CPerfCxxPeers
import CPerfPeers

/// The `boost-rstar` and `boost-quadratic` peers: boost.geometry's rtree of int32 fence boxes
/// (Sources/CPerfCxxPeers/boost_rtree.cpp), bulk-loaded with R*-tree parameters or built by one insert per fence
/// with quadratic splits; a point-in-box query per fix, the core's exact test (gf_distance) on every box found.
final class BoostRtreeEngine: IndexPeer {
    /// How the tree is built, as perf_cxx_peers.h's pp_rtree_kind.
    enum Kind {
        case rstarBulk
        case quadraticInserted

        fileprivate var cKind: pp_rtree_kind {
            switch self {
            case .rstarBulk: PP_RTREE_RSTAR_BULK
            case .quadraticInserted: PP_RTREE_QUADRATIC_INSERTED
            }
        }
    }

    let engine: EngineName
    let buildCost: BuildCost
    private let tree: OpaquePointer
    private var indexBuffer = [UInt32](repeating: 0, count: CoreEngine.hitCapacity)

    init(_ kind: Kind, _ fences: FenceArrays, marginMillimetres: UInt32) throws(PeerError) {
        let (tree, cost) = try measureBuild { () throws(PeerError) -> OpaquePointer in
            var created: OpaquePointer?
            let status = pp_rtree_create(kind.cKind, fences.centres, fences.radiiMillimetres, fences.centres.count,
                                         marginMillimetres, &created)
            guard status == PP_OK, let created else { throw PeerError(call: "pp_rtree_create", status: status) }
            return created
        }
        self.tree = tree
        buildCost = cost
        engine = kind == .rstarBulk ? .boostRstar : .boostQuadratic
    }

    deinit {
        pp_rtree_destroy(tree)
    }

    func countHits(_ fixes: [gf_point], _ range: Range<Int>) throws(PeerError) -> Int {
        var hits = 0
        let status = fixes.withUnsafeBufferPointer { buffer in
            pp_rtree_count_hits(tree, buffer.baseAddress! + range.lowerBound, range.count, &hits)
        }
        guard status == PP_OK else { throw PeerError(call: "pp_rtree_count_hits", status: status) }
        return hits
    }

    func hitFenceIndices(at fix: gf_point) throws(PeerError) -> [Int] {
        var count = 0
        let status = pp_rtree_query(tree, fix, &indexBuffer, indexBuffer.count, &count)
        guard status == PP_OK else { throw PeerError(call: "pp_rtree_query", status: status) }
        return indexBuffer.prefix(count).map { Int($0) }.sorted()
    }

    /// The boost release the rtree comes from, for the report ("1_74").
    static var boostVersion: String { String(cString: pp_boost_version()) }
}
