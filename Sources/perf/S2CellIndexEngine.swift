import CGeofence
import CPerfCxxPeers
import CPerfPeers

/// The `s2-cell-index` peer: S2's S2CellIndex over each fence's cap covered by at most PP_S2_MAX_CELLS_PER_FENCE
/// cells (Sources/CPerfCxxPeers/s2_cell_index.cpp); a fix's leaf cell sought in the index, the core's exact test
/// (gf_distance) on every fence whose covering contains it.
final class S2CellIndexEngine: IndexPeer {
    let engine = EngineName.s2CellIndex
    let buildCost: BuildCost
    private let index: OpaquePointer
    private var indexBuffer = [UInt32](repeating: 0, count: CoreEngine.hitCapacity)

    init(_ fences: FenceArrays, marginMillimetres: UInt32) throws(PeerError) {
        let (index, cost) = try measureBuild { () throws(PeerError) -> OpaquePointer in
            var created: OpaquePointer?
            let status = pp_s2_create(fences.centres, fences.radiiMillimetres, fences.centres.count,
                                      marginMillimetres, &created)
            guard status == PP_OK, let created else { throw PeerError(call: "pp_s2_create", status: status) }
            return created
        }
        self.index = index
        buildCost = cost
    }

    deinit {
        pp_s2_destroy(index)
    }

    /// Cells per fence in the index (the coverings' average size), for the progress lines.
    func cellsPerFence(_ fences: Int) -> Double {
        Double(pp_s2_cell_count(index)) / Double(max(fences, 1))
    }

    func countHits(_ fixes: [gf_point], _ range: Range<Int>) throws(PeerError) -> Int {
        var hits = 0
        let status = fixes.withUnsafeBufferPointer { buffer in
            pp_s2_count_hits(index, buffer.baseAddress! + range.lowerBound, range.count, &hits)
        }
        guard status == PP_OK else { throw PeerError(call: "pp_s2_count_hits", status: status) }
        return hits
    }

    func hitFenceIndices(at fix: gf_point) throws(PeerError) -> [Int] {
        var count = 0
        let status = pp_s2_query(index, fix, &indexBuffer, indexBuffer.count, &count)
        guard status == PP_OK else { throw PeerError(call: "pp_s2_query", status: status) }
        return indexBuffer.prefix(count).map { Int($0) }.sorted()
    }
}
