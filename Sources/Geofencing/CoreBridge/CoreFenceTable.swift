import CGeofence

/// The C core's `gf_table` as a Swift value owner: the one place the façade calls the core, turning its status codes
/// into `RegionMonitorError`. Not thread-safe: `RegionMonitor` calls it under its lock.
final class CoreFenceTable {
    private let table: OpaquePointer
    /// Reused query buffer: the query path allocates only when a fix has more hits than ever before. Behind a
    /// pointer for the reason `cursors` is.
    private let hits: UnsafeMutablePointer<UnsafeMutableBufferPointer<gf_hit>>
    /// What gf_query_tracked remembers between the queries of one `Track`, a cursor each (indexed by the raw value).
    /// Behind a pointer rather than stored `var`s: passing a class's stored property `&` costs a dynamic exclusivity
    /// check (swift_beginAccess / swift_endAccess) on every query.
    private let cursors: UnsafeMutablePointer<gf_cursor>

    /// A sequence of queries at places near each other, which gf_query_tracked answers faster with a cursor of its
    /// own: the vehicle's fixes with margin 0 (a fix far from the last), and its fixes as the ends of the segments
    /// from the last (queried with the segment's length as margin). A cursor remembers an area for one margin: two
    /// sequences asking different margins would overwrite each other's memory at every fix on a shared one.
    enum Track: Int, CaseIterable {
        case fixes
        case segments
    }

    init(capacity: Int) throws(RegionMonitorError) {
        var created: OpaquePointer?
        let status = gf_table_create(UInt32(clamping: capacity), &created)
        guard status == GF_OK, let created else { throw Self.error(status, capacity: capacity) }
        table = created
        hits = .allocate(capacity: 1)
        hits.initialize(to: .allocate(capacity: 64))
        cursors = .allocate(capacity: Track.allCases.count)
        cursors.initialize(repeating: gf_cursor(), count: Track.allCases.count)
    }

    deinit {
        gf_table_destroy(table)
        hits.pointee.deallocate()
        hits.deallocate()
        cursors.deallocate()
    }

    var count: Int { Int(gf_table_count(table)) }

    /// The slot part of a core handle: its low 24 bits (`gf_handle` in geofence.h; the high 8 bits are the slot's
    /// generation). The one place the façade takes a handle apart: the core's hits name fences by handle, and the
    /// façade's tables are indexed by slot.
    static func slot(of handle: gf_handle) -> Int { Int(handle & 0xFF_FFFF) }

    func add(_ shape: CoreShape) throws(RegionMonitorError) -> gf_handle {
        var handle = GF_HANDLE_NONE
        let status: gf_status
        switch shape {
        case .circle(let center, let radius):
            status = gf_fence_add(table, center, radius, &handle)
        case .polygon(let vertices, let ringEnds):
            status = gf_polygon_add(table, vertices, ringEnds, UInt32(ringEnds.count), &handle)
        case .corridor(let path, let halfWidth):
            status = gf_corridor_add(table, path, UInt32(path.count), halfWidth, &handle)
        }
        guard status == GF_OK else { throw Self.error(status, capacity: Int(gf_table_capacity(table))) }
        return handle
    }

    /// Gives the fence `handle` the shape `shape`; returns its handle afterwards. A circle staying a circle moves
    /// in place (same handle); otherwise the new shape is added before the old one is removed (a new handle), so
    /// that on any error the old fence stands unchanged.
    func replace(_ handle: gf_handle, with shape: CoreShape) throws(RegionMonitorError) -> gf_handle {
        var center = gf_point(), radius: UInt32 = 0
        if case .circle(let newCenter, let newRadius) = shape, gf_fence_get(table, handle, &center, &radius) == GF_OK {
            let status = gf_fence_move(table, handle, newCenter, newRadius)
            guard status == GF_OK else { throw Self.error(status, capacity: Int(gf_table_capacity(table))) }
            return handle
        }
        // A full table has no slot for the new shape before the old one goes: that is the capacity error, as for
        // any add (the caller may stop the region and start it again).
        let added = try add(shape)
        remove(handle)
        return added
    }

    func remove(_ handle: gf_handle) {
        let status = gf_fence_remove(table, handle)
        precondition(status == GF_OK, "gf_fence_remove of a handle the monitor holds failed")
    }

    /// Calls `body` with every fence containing `point` or within `marginMillimetres` of it (handle, signed distance
    /// in mm). The buffer is only valid during the call. `track`: the sequence of queries the point continues (the
    /// query remembers the index around it for the next one of the track; the answer is the same either way).
    func query(
        _ point: gf_point, marginMillimetres: UInt32, following track: Track? = nil,
        _ body: (UnsafeMutableBufferPointer<gf_hit>) -> Void
    ) {
        body(hits(at: point, marginMillimetres: marginMillimetres, following: track))
    }

    /// `query`'s hits as a buffer, valid until the next query of this table (the buffer is reused). For a caller
    /// that changes its own state while going through them: a closure capturing a struct's `self` inout makes the
    /// compiler retain the table for the call (the closure could replace it), which this saves.
    func hits(
        at point: gf_point, marginMillimetres: UInt32, following track: Track? = nil
    ) -> UnsafeMutableBufferPointer<gf_hit> {
        while true {
            var count = 0
            let buffer = hits.pointee
            let status = if let track {
                gf_query_tracked(table, cursors + track.rawValue, point, marginMillimetres, buffer.baseAddress,
                                 buffer.count, &count)
            } else {
                gf_query(table, point, marginMillimetres, buffer.baseAddress, buffer.count, &count)
            }
            if status == GF_ERR_TRUNCATED {
                buffer.deallocate()
                hits.pointee = .allocate(capacity: count * 2)
                continue
            }
            precondition(status == GF_OK, "gf_query of a valid fix failed")
            return UnsafeMutableBufferPointer(rebasing: buffer[..<count])
        }
    }

    /// The core's geodesic distance in metres between two valid points (error <= 9 mm up to 100 km).
    static func distance(_ a: gf_point, _ b: gf_point) -> Double {
        var millimetres: Int64 = 0
        let status = gf_distance(a, b, &millimetres)
        precondition(status == GF_OK, "gf_distance of valid points failed")
        return Double(millimetres) / 1000
    }

    /// Signed distance in metres from `point` to the boundary of fence `handle`, as the query computes it (negative
    /// inside). Circles: exact. Polygons and corridors: exact within `limit` metres of the boundary (at most 50 km);
    /// beyond it outside, just over `limit`; deeper inside, between `limit` and the true depth (gf_fence_distance).
    func distance(from point: gf_point, to handle: gf_handle, limit: Double = 50_000) -> Double {
        let limitMillimetres = UInt32(min(Double(GF_MARGIN_MAX_MM), max(0, limit * 1000).rounded(.up)))
        return Double(distanceMillimetres(from: point, to: handle, limitMillimetres: limitMillimetres)) / 1000
    }

    /// `distance(from:to:limit:)` in the core's millimetres, with the limit in millimetres (at most
    /// `GF_MARGIN_MAX_MM`): the signed distance a query with that margin reports for the fence.
    func distanceMillimetres(from point: gf_point, to handle: gf_handle, limitMillimetres: UInt32) -> Int64 {
        var millimetres: Int64 = 0
        let status = gf_fence_distance(table, handle, point, limitMillimetres, &millimetres)
        precondition(status == GF_OK, "gf_fence_distance of a valid fix and handle failed")
        return millimetres
    }

    /// `distance(from:to:limit:)` exact at any distance up to 50 km (beyond, just over 50 km), at a cost that grows
    /// with the distance rather than with the shape: a polygon or corridor is measured within 64 m, then 1 km, 16 km
    /// and 50 km of the fix until the answer lies within the limit (a circle is exact at once).
    func exactDistance(from point: gf_point, to handle: gf_handle, isCircle: Bool) -> Double {
        if isCircle { return distance(from: point, to: handle) }
        for limit in [64.0, 1_000, 16_000] {
            let measured = distance(from: point, to: handle, limit: limit)
            if abs(measured) < limit { return measured }
        }
        return distance(from: point, to: handle)
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
        case GF_ERR_SHAPE, GF_ERR_RADIUS, GF_ERR_LATITUDE, GF_ERR_LONGITUDE:
            .invalidShape(String(cString: gf_status_message(status)))
        default: .core(String(cString: gf_status_name(status)))
        }
    }
}
