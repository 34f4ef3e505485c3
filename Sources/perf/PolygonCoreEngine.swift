import CGeofence

/// The core on polygon and corridor fences: one gf_table holding every shape of a dataset (gf_polygon_add per
/// polygon, gf_corridor_add for a corridor), each fix answered as the circle rows answer it: gf_query_tracked with one
/// cursor on a drive, gf_query otherwise, into a reused buffer, margin 0 (a hit is a fix inside the shape).
final class PolygonCoreEngine {
    private let table: OpaquePointer
    private let hitBuffer: UnsafeMutableBufferPointer<gf_hit>
    private let cursor: UnsafeMutablePointer<gf_cursor>  // behind a pointer, as CoreEngine's (why: there)
    /// The shape index each handle stands for: only the agreement check needs it, never the timed loop.
    private let shapeIndexByHandle: [gf_handle: Int]
    /// Time and heap bytes of gf_table_create plus every gf_polygon_add / gf_corridor_add.
    let buildCost: BuildCost

    init(_ shapes: PolygonDataset.Shapes) throws(CoreError) {
        var handles: [gf_handle] = []
        handles.reserveCapacity(1 << 16)  // before measuring: the measured bytes are the table's alone
        let arrays: PolygonArrays?
        let corridorPath: [gf_point]
        switch shapes {
        case .polygons(let polygons):
            arrays = PolygonArrays(polygons)
            corridorPath = []
        case .corridor(let corridor):
            arrays = nil
            corridorPath = corridor.path.map(\.point)
        }
        let (table, cost) = try measureBuild { () throws(CoreError) -> OpaquePointer in
            if let arrays {
                return try Self.makeTable(arrays, handles: &handles)
            }
            guard case .corridor(let corridor) = shapes else { preconditionFailure("polygons have arrays") }
            return try Self.makeTable(corridorPath: corridorPath, halfWidthMillimetres: corridor.halfWidthMillimetres,
                                      handles: &handles)
        }
        self.table = table
        buildCost = cost
        hitBuffer = .allocate(capacity: CoreEngine.hitCapacity)
        cursor = .allocate(capacity: 1)
        cursor.initialize(to: gf_cursor())
        shapeIndexByHandle = Dictionary(uniqueKeysWithValues: zip(handles, handles.indices))
    }

    deinit {
        gf_table_destroy(table)
        hitBuffer.deallocate()
        cursor.deallocate()
    }

    /// What the table says it allocated (gf_table_memory).
    var tableMemoryBytes: Int { gf_table_memory(table) }

    /// Queries every fix of `range` with margin 0, returning the total hits. This is the loop the benchmark times.
    func countHits(_ fixes: [gf_point], _ range: Range<Int>, tracking: Bool) throws(CoreError) -> Int {
        var total = 0
        for index in range {
            var count = 0
            let status = tracking
                ? gf_query_tracked(table, cursor, fixes[index], 0, hitBuffer.baseAddress, hitBuffer.count, &count)
                : gf_query(table, fixes[index], 0, hitBuffer.baseAddress, hitBuffer.count, &count)
            guard status == GF_OK else {
                throw CoreError(call: tracking ? "gf_query_tracked" : "gf_query", status: status)
            }
            total += count
        }
        return total
    }

    /// The shapes containing a fix (margin 0), by index, ascending: for the agreement check.
    func insideShapeIndices(at fix: gf_point) throws(CoreError) -> [Int] {
        try hits(at: fix, marginMillimetres: 0).map(\.shapeIndex)
    }

    /// The core's signed distance (mm, negative inside) from a fix to one shape's boundary, if that is within
    /// `reachMillimetres`; nil when farther. For listing disagreements: how close to the boundary the fix was.
    func signedDistance(
        at fix: gf_point, toShape shapeIndex: Int, reachMillimetres: UInt32
    ) throws(CoreError) -> Int32? {
        try hits(at: fix, marginMillimetres: reachMillimetres).first { $0.shapeIndex == shapeIndex }?
            .distanceMillimetres
    }

    private func hits(
        at fix: gf_point, marginMillimetres: UInt32
    ) throws(CoreError) -> [(shapeIndex: Int, distanceMillimetres: Int32)] {
        var count = 0
        let status = gf_query(table, fix, marginMillimetres, hitBuffer.baseAddress, hitBuffer.count, &count)
        guard status == GF_OK else { throw CoreError(call: "gf_query", status: status) }
        return hitBuffer.prefix(count)
            .map { (shapeIndex: shapeIndexByHandle[$0.handle] ?? -1, distanceMillimetres: $0.distance_mm) }
            .sorted { $0.shapeIndex < $1.shapeIndex }
    }

    /// A table holding the polygons in order, their handles appended to `handles`. On failure nothing is left.
    private static func makeTable(
        _ arrays: PolygonArrays, handles: inout [gf_handle]
    ) throws(CoreError) -> OpaquePointer {
        let table = try createTable(capacity: arrays.polygonEnds.count)
        var firstRing = 0
        for polygonEnd in arrays.polygonEnds.map(Int.init) {
            let firstVertex = firstRing == 0 ? 0 : Int(arrays.ringEnds[firstRing - 1])
            // gf_polygon_add takes ring ends relative to the polygon's first vertex.
            let ringEnds = arrays.ringEnds[firstRing..<polygonEnd].map { $0 - UInt32(firstVertex) }
            var handle: gf_handle = 0
            let status = arrays.vertices.withUnsafeBufferPointer { vertices in
                gf_polygon_add(table, vertices.baseAddress! + firstVertex, ringEnds, UInt32(ringEnds.count), &handle)
            }
            guard status == GF_OK else {
                gf_table_destroy(table)
                throw CoreError(call: "gf_polygon_add (polygon \(handles.count))", status: status)
            }
            handles.append(handle)
            firstRing = polygonEnd
        }
        return table
    }

    private static func makeTable(
        corridorPath: [gf_point], halfWidthMillimetres: UInt32, handles: inout [gf_handle]
    ) throws(CoreError) -> OpaquePointer {
        let table = try createTable(capacity: 1)
        var handle: gf_handle = 0
        let status = gf_corridor_add(table, corridorPath, UInt32(corridorPath.count), halfWidthMillimetres, &handle)
        guard status == GF_OK else {
            gf_table_destroy(table)
            throw CoreError(call: "gf_corridor_add", status: status)
        }
        handles.append(handle)
        return table
    }

    private static func createTable(capacity: Int) throws(CoreError) -> OpaquePointer {
        var created: OpaquePointer?
        let status = gf_table_create(UInt32(max(capacity, 1)), &created)
        guard status == GF_OK, let table = created else { throw CoreError(call: "gf_table_create", status: status) }
        return table
    }
}
