import CGeofence
import CPerfPeers

/// The `geos-prepared` peer: GEOS prepared polygons behind an STRtree (Sources/CPerfPeers/geos_prepared.c). Each
/// fix's point geometry is made inside the timed loop, as a user of GEOS 3.11's C API must.
final class GEOSPreparedEngine {
    private let prepared: OpaquePointer
    private var indexBuffer = [UInt32](repeating: 0, count: CoreEngine.hitCapacity)
    /// Time and heap bytes of pp_prepared_create: the GEOS context, the polygon geometries, their prepared forms with
    /// the point locators built, and the packed tree.
    let buildCost: BuildCost

    init(_ arrays: PolygonArrays) throws(PeerError) {
        let (prepared, cost) = try measureBuild { () throws(PeerError) -> OpaquePointer in
            var created: OpaquePointer?
            let status = pp_prepared_create(arrays.vertices, arrays.ringEnds, arrays.polygonEnds,
                                            arrays.polygonEnds.count, &created)
            guard status == PP_OK, let created else { throw PeerError(call: "pp_prepared_create", status: status) }
            return created
        }
        self.prepared = prepared
        buildCost = cost
    }

    deinit {
        pp_prepared_destroy(prepared)
    }

    /// Queries the fixes of `range`, returning their total hits. This is the loop the benchmark times.
    func countHits(_ fixes: [gf_point], _ range: Range<Int>) throws(PeerError) -> Int {
        var hits = 0
        let status = pp_prepared_count_hits(prepared, fixes, range.lowerBound, range.count, &hits)
        guard status == PP_OK else { throw PeerError(call: "pp_prepared_count_hits", status: status) }
        return hits
    }

    /// The polygons containing a fix, by index, ascending: for the agreement check.
    func insideShapeIndices(at fix: gf_point) throws(PeerError) -> [Int] {
        var count = 0
        let status = pp_prepared_query(prepared, fix, &indexBuffer, indexBuffer.count, &count)
        guard status == PP_OK else { throw PeerError(call: "pp_prepared_query", status: status) }
        return indexBuffer.prefix(count).map { Int($0) }.sorted()
    }
}
