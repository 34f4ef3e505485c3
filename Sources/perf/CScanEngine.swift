import CGeofence
import CPerfPeers

/// The `c-scan` peer: every fence for every fix, an integer box reject then the core's exact test (gf_distance), in
/// C (Sources/CPerfPeers/c_scan.c). The no-index floor.
final class CScanEngine {
    private let scan: OpaquePointer
    private var indexBuffer = [UInt32](repeating: 0, count: CoreEngine.hitCapacity)
    /// Time and heap bytes of pp_scan_create: its structure-of-arrays copy of the fences and their boxes.
    let buildCost: BuildCost

    init(_ fences: FenceArrays, marginMillimetres: UInt32) throws(PeerError) {
        let (scan, cost) = try measureBuild { () throws(PeerError) -> OpaquePointer in
            var created: OpaquePointer?
            let status = pp_scan_create(fences.centres, fences.radiiMillimetres, fences.centres.count,
                                        marginMillimetres, &created)
            guard status == PP_OK, let created else { throw PeerError(call: "pp_scan_create", status: status) }
            return created
        }
        self.scan = scan
        buildCost = cost
    }

    deinit {
        pp_scan_destroy(scan)
    }

    /// Queries fixes[range] and returns their total hits. This is the loop the benchmark times.
    func countHits(_ fixes: [gf_point], _ range: Range<Int>) throws(PeerError) -> Int {
        var hits = 0
        let status = fixes.withUnsafeBufferPointer { buffer in
            pp_scan_count_hits(scan, buffer.baseAddress! + range.lowerBound, range.count, &hits)
        }
        guard status == PP_OK else { throw PeerError(call: "pp_scan_count_hits", status: status) }
        return hits
    }

    /// The fences hit by one fix, by index, ascending: for the agreement check.
    func hitFenceIndices(at fix: gf_point) throws(PeerError) -> [Int] {
        var count = 0
        let status = pp_scan_query(scan, fix, &indexBuffer, indexBuffer.count, &count)
        guard status == PP_OK else { throw PeerError(call: "pp_scan_query", status: status) }
        return indexBuffer.prefix(count).map { Int($0) }
    }
}
