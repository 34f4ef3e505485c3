import CGeofence

/// The C core's `gf_table` as a Swift value owner: the one place the façade calls the core, turning its status codes
/// into `RegionMonitorError`. Not thread-safe: `RegionMonitor` calls it under its lock.
final class CoreFenceTable {
    private let table: OpaquePointer
    /// Reused query buffer: the query path allocates only when a fix has more hits than ever before.
    private var hits: UnsafeMutableBufferPointer<gf_hit>
    /// The cells of the vehicle's last fix (gf_query_tracked), for the queries of consecutive fixes.
    private var cursor = gf_cursor()

    init(capacity: Int) throws(RegionMonitorError) {
        var created: OpaquePointer?
        let status = gf_table_create(UInt32(clamping: capacity), &created)
        guard status == GF_OK, let created else { throw Self.error(status, capacity: capacity) }
        table = created
        hits = .allocate(capacity: 64)
    }

    deinit {
        gf_table_destroy(table)
        hits.deallocate()
    }

    var count: Int { Int(gf_table_count(table)) }

    func add(center: gf_point, radiusMillimetres: UInt32) throws(RegionMonitorError) -> gf_handle {
        var handle = GF_HANDLE_NONE
        let status = gf_fence_add(table, center, radiusMillimetres, &handle)
        guard status == GF_OK else { throw Self.error(status, capacity: Int(gf_table_capacity(table))) }
        return handle
    }

    func move(_ handle: gf_handle, center: gf_point, radiusMillimetres: UInt32) throws(RegionMonitorError) {
        let status = gf_fence_move(table, handle, center, radiusMillimetres)
        guard status == GF_OK else { throw Self.error(status, capacity: Int(gf_table_capacity(table))) }
    }

    func remove(_ handle: gf_handle) {
        let status = gf_fence_remove(table, handle)
        precondition(status == GF_OK, "gf_fence_remove of a handle the monitor holds failed")
    }

    /// Calls `body` with every fence containing `point` or within `marginMillimetres` of it (handle, signed distance
    /// in mm). The buffer is only valid during the call. `tracking`: the point is the vehicle's next fix (the query
    /// remembers its cells for the next one; the answer is the same either way).
    func query(
        _ point: gf_point, marginMillimetres: UInt32, tracking: Bool = false,
        _ body: (UnsafeMutableBufferPointer<gf_hit>) -> Void
    ) {
        while true {
            var count = 0
            let status = tracking
                ? gf_query_tracked(table, &cursor, point, marginMillimetres, hits.baseAddress, hits.count, &count)
                : gf_query(table, point, marginMillimetres, hits.baseAddress, hits.count, &count)
            if status == GF_ERR_TRUNCATED {
                hits.deallocate()
                hits = .allocate(capacity: count * 2)
                continue
            }
            precondition(status == GF_OK, "gf_query of a valid fix failed")
            body(UnsafeMutableBufferPointer(rebasing: hits[..<count]))
            return
        }
    }

    /// The core's geodesic distance in metres between two valid points (error <= 9 mm up to 100 km).
    static func distance(_ a: gf_point, _ b: gf_point) -> Double {
        var millimetres: Int64 = 0
        let status = gf_distance(a, b, &millimetres)
        precondition(status == GF_OK, "gf_distance of valid points failed")
        return Double(millimetres) / 1000
    }

    /// A coordinate as the core's e7 point, nil when it is invalid.
    static func point(_ coordinate: Coordinate) -> gf_point? {
        var point = gf_point()
        guard gf_point_from_degrees(coordinate.latitude, coordinate.longitude, &point) == GF_OK else { return nil }
        return point
    }

    private static func error(_ status: gf_status, capacity: Int) -> RegionMonitorError {
        switch status {
        case GF_ERR_CAPACITY: .capacityReached(capacity)
        case GF_ERR_NOMEM: .outOfMemory
        default: .core(String(cString: gf_status_name(status)))
        }
    }
}
