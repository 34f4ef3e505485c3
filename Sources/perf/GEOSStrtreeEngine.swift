import CGeofence
import CPerfPeers

/// The `geos-strtree` peer: GEOS's STRtree through its reentrant C API (Sources/CPerfPeers/geos_strtree.c), each
/// fence's box an item, a point geometry per fix as the query, the core's exact test (gf_distance) in the callback.
final class GEOSStrtreeEngine {
    private let tree: OpaquePointer
    private var indexBuffer = [UInt32](repeating: 0, count: CoreEngine.hitCapacity)
    /// Time and heap bytes of pp_strtree_create: the GEOS context, the packed tree, and the 12-byte fence records the
    /// items point at.
    let buildCost: BuildCost

    init(_ fences: FenceArrays, marginMillimetres: UInt32) throws(PeerError) {
        let (tree, cost) = try measureBuild { () throws(PeerError) -> OpaquePointer in
            var created: OpaquePointer?
            let status = pp_strtree_create(fences.centres, fences.radiiMillimetres, fences.centres.count,
                                           marginMillimetres, &created)
            guard status == PP_OK, let created else { throw PeerError(call: "pp_strtree_create", status: status) }
            return created
        }
        self.tree = tree
        buildCost = cost
    }

    deinit {
        pp_strtree_destroy(tree)
    }

    /// Makes the query point geometries of a stream, untimed (see pp_strtree_load_fixes); indices below refer to it.
    func loadFixes(_ fixes: [gf_point]) throws(PeerError) {
        let status = pp_strtree_load_fixes(tree, fixes, fixes.count)
        guard status == PP_OK else { throw PeerError(call: "pp_strtree_load_fixes", status: status) }
    }

    /// Queries the loaded fixes of `range`, returning their total hits. This is the loop the benchmark times.
    func countHits(_ range: Range<Int>) throws(PeerError) -> Int {
        var hits = 0
        let status = pp_strtree_count_hits(tree, range.lowerBound, range.count, &hits)
        guard status == PP_OK else { throw PeerError(call: "pp_strtree_count_hits", status: status) }
        return hits
    }

    /// The fences hit by loaded fix `index`, by index, ascending: for the agreement check.
    func hitFenceIndices(atLoadedFix index: Int) throws(PeerError) -> [Int] {
        var count = 0
        let status = pp_strtree_query(tree, index, &indexBuffer, indexBuffer.count, &count)
        guard status == PP_OK else { throw PeerError(call: "pp_strtree_query", status: status) }
        return indexBuffer.prefix(count).map { Int($0) }.sorted()
    }
}
