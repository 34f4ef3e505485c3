// Every error path of include/geofence.h: each bad argument gets the status that names it, outputs promised to stay
// untouched do, and a table that refused a call is exactly as it was before (contract 7 in ARCHITECTURE.md).
import CGeofence
import Testing

@Suite("Bad input is rejected, named, and harmless")
struct BadInputTests {
    /// Everything observable about a table, to compare before and after a rejected call.
    struct Snapshot: Equatable {
        let count: UInt32
        let capacity: UInt32
        let memory: Int
        let fences: [String]
        let hits: [[Hit]]

        init(_ table: FenceTable, handles: [gf_handle]) throws {
            count = table.count
            capacity = gf_table_capacity(table.pointer)
            memory = gf_table_memory(table.pointer)
            fences = handles.map { handle in
                var centre = gf_point(lat: 0, lon: 0)
                var radius: UInt32 = 0
                let status = gf_fence_get(table.pointer, handle, &centre, &radius)
                return "\(describe(status)) \(centre.text) \(radius)"
            }
            hits = try BadInputTests.probes.map { try table.query($0, marginMM: 1_000) }
            try requireOK(gf_table_verify(table.pointer), "gf_table_verify")
        }
    }

    static let probes = [gf_point(lat: 0, lon: 0), gf_point(lat: 10_000, lon: 10_000), gf_point(lat: 600_000_000, lon: 0)]

    /// A small table: three fences around the first probe, one far away and one removed again (so a stale handle
    /// exists), with its snapshot for `expectUnchanged` once the rejected calls have been made.
    struct SmallTable {
        let table: FenceTable
        let handles: [gf_handle]
        let removedHandle: gf_handle
        let before: Snapshot

        init() throws {
            table = try FenceTable(capacity: 10)
            handles = [
                try table.add(gf_point(lat: 0, lon: 0), radiusMM: 1_000),
                try table.add(gf_point(lat: 5_000, lon: 5_000), radiusMM: 200_000),
                try table.add(gf_point(lat: -5_000, lon: 0), radiusMM: 50_000_000),
                try table.add(gf_point(lat: 600_000_000, lon: 1_799_999_999), radiusMM: 10_000),
            ]
            removedHandle = try table.add(gf_point(lat: 1, lon: 1), radiusMM: 1_000)
            try requireOK(gf_fence_remove(table.pointer, removedHandle), "gf_fence_remove")
            before = try Snapshot(table, handles: handles + [removedHandle])
        }

        var pointer: OpaquePointer { table.pointer }

        func expectUnchanged(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let after = try Snapshot(table, handles: handles + [removedHandle])
            #expect(after == before, "a rejected call changed the table", sourceLocation: sourceLocation)
        }
    }

    @Test("NULL pointers give GF_ERR_NULL")
    func nullPointers() throws {
        let point = gf_point(lat: 7, lon: 7)
        expectStatus(gf_point_from_degrees(1, 2, nil), GF_ERR_NULL, "gf_point_from_degrees(out nil)")
        expectStatus(gf_distance(point, point, nil), GF_ERR_NULL, "gf_distance(distance_mm nil)")
        expectStatus(gf_table_create(10, nil), GF_ERR_NULL, "gf_table_create(out nil)")

        var handle = GF_HANDLE_NONE
        var centre = point
        var radius: UInt32 = 0
        var hits = [gf_hit](repeating: gf_hit(handle: 0, distance_mm: 0), count: 4)
        var count = 99
        expectStatus(gf_fence_add(nil, point, 1_000, &handle), GF_ERR_NULL, "gf_fence_add(table nil)")
        expectStatus(gf_fence_remove(nil, 0x0100_0000), GF_ERR_NULL, "gf_fence_remove(table nil)")
        expectStatus(gf_fence_move(nil, 0x0100_0000, point, 1_000), GF_ERR_NULL, "gf_fence_move(table nil)")
        expectStatus(gf_fence_get(nil, 0x0100_0000, &centre, &radius), GF_ERR_NULL, "gf_fence_get(table nil)")
        expectStatus(gf_query(nil, point, 0, &hits, hits.count, &count), GF_ERR_NULL, "gf_query(table nil)")
        #expect(count == 0, "gf_query must zero *count on GF_ERR_NULL")
        expectStatus(gf_table_verify(nil), GF_ERR_NULL, "gf_table_verify(nil)")
        gf_table_destroy(nil)  // Allowed: does nothing.
        gf_point_to_degrees(point, nil, nil)  // Allowed: either output may be NULL.

        let small = try SmallTable()
        expectStatus(gf_fence_add(small.pointer, point, 1_000, nil), GF_ERR_NULL, "gf_fence_add(out nil)")
        expectStatus(gf_query(small.pointer, point, 0, &hits, hits.count, nil), GF_ERR_NULL, "gf_query(count nil)")
        count = 99
        expectStatus(gf_query(small.pointer, point, 0, nil, 4, &count), GF_ERR_NULL, "gf_query(hits nil, capacity 4)")
        #expect(count == 0, "gf_query must zero *count on GF_ERR_NULL")
        // Outputs documented as optional are optional.
        expectStatus(gf_fence_get(small.pointer, small.handles[0], nil, nil), GF_OK, "gf_fence_get(both outputs nil)")
        expectStatus(gf_fence_get(small.pointer, small.handles[0], &centre, nil), GF_OK, "gf_fence_get(radius nil)")
        expectStatus(gf_fence_get(small.pointer, small.handles[0], nil, &radius), GF_OK, "gf_fence_get(centre nil)")
        #expect(centre.lat == 0 && centre.lon == 0 && radius == 1_000)
        try small.expectUnchanged()
    }

    @Test("gf_point_from_degrees rejects NaN, infinities and out-of-range degrees, leaving out untouched")
    func degreesOutOfRange() {
        let nan = Double.nan
        let cases: [(lat: Double, lon: Double, expected: gf_status)] = [
            (nan, 0, GF_ERR_LATITUDE), (-nan, 0, GF_ERR_LATITUDE), (.infinity, 0, GF_ERR_LATITUDE),
            (-.infinity, 0, GF_ERR_LATITUDE), (90.0000001, 0, GF_ERR_LATITUDE), (-90.0000001, 0, GF_ERR_LATITUDE),
            (91, 0, GF_ERR_LATITUDE), (1e300, 0, GF_ERR_LATITUDE), (-1e300, 0, GF_ERR_LATITUDE),
            (0, nan, GF_ERR_LONGITUDE), (0, .infinity, GF_ERR_LONGITUDE), (0, -.infinity, GF_ERR_LONGITUDE),
            (0, 180.0000001, GF_ERR_LONGITUDE), (0, -180.5, GF_ERR_LONGITUDE), (0, 360, GF_ERR_LONGITUDE),
            (0, 1e300, GF_ERR_LONGITUDE), (45, -1e300, GF_ERR_LONGITUDE),
        ]
        for (lat, lon, expected) in cases {
            var out = gf_point(lat: 123, lon: 456)
            expectStatus(gf_point_from_degrees(lat, lon, &out), expected, "gf_point_from_degrees(\(lat), \(lon))")
            #expect(out.lat == 123 && out.lon == 456, "out changed on error for (\(lat), \(lon))")
        }
    }

    @Test("gf_distance rejects e7 coordinates beyond +-90 / +-180 degrees")
    func distanceOutOfRange() {
        let good = gf_point(lat: 0, lon: 0)
        let cases: [(gf_point, gf_status)] = [
            (gf_point(lat: GF_LAT_MAX_E7 + 1, lon: 0), GF_ERR_LATITUDE),
            (gf_point(lat: -GF_LAT_MAX_E7 - 1, lon: 0), GF_ERR_LATITUDE),
            (gf_point(lat: .min, lon: 0), GF_ERR_LATITUDE),
            (gf_point(lat: .max, lon: 0), GF_ERR_LATITUDE),
            (gf_point(lat: 0, lon: GF_LON_MAX_E7 + 1), GF_ERR_LONGITUDE),
            (gf_point(lat: 0, lon: -GF_LON_MAX_E7 - 1), GF_ERR_LONGITUDE),
            (gf_point(lat: 0, lon: .min), GF_ERR_LONGITUDE),
        ]
        for (bad, expected) in cases {
            var distance: Int64 = 0
            expectStatus(gf_distance(bad, good, &distance), expected, "gf_distance(\(bad.text), \(good.text))")
            expectStatus(gf_distance(good, bad, &distance), expected, "gf_distance(\(good.text), \(bad.text))")
        }
        var distance: Int64 = -1
        let corners = [gf_point(lat: GF_LAT_MAX_E7, lon: GF_LON_MAX_E7), gf_point(lat: -GF_LAT_MAX_E7, lon: -GF_LON_MAX_E7)]
        expectStatus(gf_distance(corners[0], corners[1], &distance), GF_OK, "gf_distance between the poles")
    }

    @Test("Fence centres beyond +-85 degrees, and radii outside 1 m .. 50 km, are refused by add and move")
    func badFences() throws {
        let badCentres: [(gf_point, gf_status)] = [
            (gf_point(lat: GF_FENCE_LAT_MAX_E7 + 1, lon: 0), GF_ERR_LATITUDE),
            (gf_point(lat: -GF_FENCE_LAT_MAX_E7 - 1, lon: 0), GF_ERR_LATITUDE),
            (gf_point(lat: GF_LAT_MAX_E7, lon: 0), GF_ERR_LATITUDE),
            (gf_point(lat: GF_LAT_MAX_E7 + 1, lon: 0), GF_ERR_LATITUDE),
            (gf_point(lat: 0, lon: GF_LON_MAX_E7 + 1), GF_ERR_LONGITUDE),
            (gf_point(lat: 0, lon: -GF_LON_MAX_E7 - 1), GF_ERR_LONGITUDE),
        ]
        let badRadii: [UInt32] = [0, 1, 999, GF_RADIUS_MAX_MM + 1, .max]
        let small = try SmallTable()
        for (centre, expected) in badCentres {
            var handle: gf_handle = 0xDEAD
            expectStatus(gf_fence_add(small.pointer, centre, 1_000, &handle), expected, "add at \(centre.text)")
            #expect(handle == 0xDEAD, "gf_fence_add wrote a handle on error")
            expectStatus(gf_fence_move(small.pointer, small.handles[1], centre, 1_000), expected, "move to \(centre.text)")
        }
        for radius in badRadii {
            var handle: gf_handle = 0xDEAD
            expectStatus(gf_fence_add(small.pointer, gf_point(lat: 0, lon: 0), radius, &handle), GF_ERR_RADIUS, "add r \(radius)")
            #expect(handle == 0xDEAD, "gf_fence_add wrote a handle on error")
            expectStatus(gf_fence_move(small.pointer, small.handles[1], gf_point(lat: 0, lon: 0), radius), GF_ERR_RADIUS, "move r \(radius)")
        }
        try small.expectUnchanged()
        // The limits themselves are accepted.
        let table = try FenceTable(capacity: 10)
        for centre in [
            gf_point(lat: GF_FENCE_LAT_MAX_E7, lon: GF_LON_MAX_E7), gf_point(lat: -GF_FENCE_LAT_MAX_E7, lon: -GF_LON_MAX_E7),
        ] {
            for radius in [GF_RADIUS_MIN_MM, GF_RADIUS_MAX_MM] { _ = try table.add(centre, radiusMM: radius) }
        }
        try requireOK(gf_table_verify(table.pointer), "verify after adding at the limits")
    }

    @Test("Queries reject fixes beyond +-90 / +-180 degrees and margins above 50 km, zeroing *count")
    func badQueries() throws {
        let small = try SmallTable()
        var hits = [gf_hit](repeating: gf_hit(handle: 0, distance_mm: 0), count: 8)
        let cases: [(gf_point, UInt32, gf_status)] = [
            (gf_point(lat: GF_LAT_MAX_E7 + 1, lon: 0), 0, GF_ERR_LATITUDE),
            (gf_point(lat: -GF_LAT_MAX_E7 - 1, lon: 0), 0, GF_ERR_LATITUDE),
            (gf_point(lat: 0, lon: GF_LON_MAX_E7 + 1), 0, GF_ERR_LONGITUDE),
            (gf_point(lat: 0, lon: .min), 0, GF_ERR_LONGITUDE),
            (gf_point(lat: 0, lon: 0), GF_MARGIN_MAX_MM + 1, GF_ERR_MARGIN),
            (gf_point(lat: 0, lon: 0), .max, GF_ERR_MARGIN),
        ]
        for (fix, margin, expected) in cases {
            var count = 99
            expectStatus(gf_query(small.pointer, fix, margin, &hits, hits.count, &count), expected, "query \(fix.text) margin \(margin)")
            #expect(count == 0, "*count is \(count) after an error for \(fix.text) margin \(margin)")
        }
        // Fixes may be anywhere, including the poles, and the largest margin is allowed.
        for fix in [gf_point(lat: GF_LAT_MAX_E7, lon: 0), gf_point(lat: -GF_LAT_MAX_E7, lon: GF_LON_MAX_E7)] {
            _ = try small.table.query(fix, marginMM: GF_MARGIN_MAX_MM)
        }
        try small.expectUnchanged()
    }

    @Test("Capacity: 0 and above 2^24 - 1 are refused; a full table refuses one more fence")
    func capacity() throws {
        for bad in [0, GF_CAPACITY_MAX + 1, .max] as [UInt32] {
            var table: OpaquePointer?
            expectStatus(gf_table_create(bad, &table), GF_ERR_CAPACITY, "gf_table_create(\(bad))")
            gf_table_destroy(table)
        }
        // The largest capacity is accepted and costs nothing up front: memory grows with fences, not capacity.
        let largest = try FenceTable(capacity: GF_CAPACITY_MAX)
        #expect(gf_table_capacity(largest.pointer) == GF_CAPACITY_MAX)
        #expect(gf_table_memory(largest.pointer) < 64 * 1024, "empty table of capacity 2^24-1 holds \(gf_table_memory(largest.pointer)) bytes")

        let table = try FenceTable(capacity: 3)
        let handles = try (0..<3).map { try table.add(gf_point(lat: Int32($0) * 1_000, lon: 0), radiusMM: 5_000) }
        let before = try Snapshot(table, handles: handles)
        var extra: gf_handle = 0xDEAD
        expectStatus(gf_fence_add(table.pointer, gf_point(lat: 0, lon: 0), 5_000, &extra), GF_ERR_CAPACITY, "4th add to capacity 3")
        #expect(extra == 0xDEAD)
        #expect(try Snapshot(table, handles: handles) == before, "the refused add changed the table")
        // Room again after a removal.
        try requireOK(gf_fence_remove(table.pointer, handles[1]), "remove from the full table")
        _ = try table.add(gf_point(lat: 0, lon: 0), radiusMM: 5_000)
        #expect(table.count == 3)
    }

    @Test("Handles that name no live fence give GF_ERR_HANDLE")
    func badHandles() throws {
        // A live handle of a bigger table: its slot is one the small table below never uses.
        let other = try FenceTable(capacity: 10)
        let foreign = try (0..<8).map { _ in try other.add(gf_point(lat: 0, lon: 0), radiusMM: 1_000) }.last!
        let small = try SmallTable()
        let live = small.handles[0]
        let slot = live & 0x00FF_FFFF
        let generation = live >> 24
        let nextGeneration = generation % 255 + 1
        var made: [gf_handle] = [
            GF_HANDLE_NONE, 0xFFFF_FFFF, 0x00FF_FFFF, small.removedHandle,
            slot,  // generation 0 never exists
            nextGeneration << 24 | slot,  // right slot, wrong generation
            1 << 24 | 100,  // a slot never used
            1 << 24 | 0x00FF_FFFF,  // the last slot number there is
        ]
        if !small.handles.contains(foreign) && foreign != small.removedHandle { made.append(foreign) }
        for handle in made {
            let name = hex(handle)
            expectStatus(gf_fence_remove(small.pointer, handle), GF_ERR_HANDLE, "remove \(name)")
            expectStatus(gf_fence_move(small.pointer, handle, gf_point(lat: 0, lon: 0), 1_000), GF_ERR_HANDLE, "move \(name)")
            var centre = gf_point(lat: 5, lon: 5)
            var radius: UInt32 = 5
            expectStatus(gf_fence_get(small.pointer, handle, &centre, &radius), GF_ERR_HANDLE, "get \(name)")
            #expect(centre.lat == 5 && centre.lon == 5 && radius == 5, "get \(name) wrote its outputs on error")
        }
        try small.expectUnchanged()
    }

    @Test("A short hit buffer gives GF_ERR_TRUNCATED, the full count, and a prefix of the hits")
    func truncatedBuffer() throws {
        let table = try FenceTable(capacity: 10)
        let fix = gf_point(lat: 0, lon: 0)
        let handles = try (1...5).map { try table.add(gf_point(lat: Int32($0) * 100, lon: 0), radiusMM: UInt32($0) * 10_000) }
        let all = try table.query(fix, marginMM: 0)
        #expect(Set(all.map(\.handle)) == Set(handles))

        let sentinel = gf_hit(handle: 0xDEAD_BEEF, distance_mm: 12345)
        for capacity in 0..<5 {
            var buffer = [gf_hit](repeating: sentinel, count: 6)
            var count = 0
            let status = buffer.withUnsafeMutableBufferPointer { hits in
                gf_query(table.pointer, fix, 0, capacity == 0 ? nil : hits.baseAddress, capacity, &count)
            }
            expectStatus(status, GF_ERR_TRUNCATED, "capacity \(capacity)")
            #expect(count == 5, "capacity \(capacity): count \(count)")
            #expect(buffer[..<capacity].map(Hit.init) == Array(all[..<capacity]), "capacity \(capacity): not a prefix")
            #expect(buffer[capacity...].allSatisfy { $0.handle == sentinel.handle }, "capacity \(capacity): wrote past the buffer")
        }
        var exact = [gf_hit](repeating: sentinel, count: 5)
        var count = 0
        expectStatus(gf_query(table.pointer, fix, 0, &exact, 5, &count), GF_OK, "capacity exactly 5")
        #expect(count == 5 && exact.map(Hit.init) == all)
        // No hits and no buffer is fine.
        expectStatus(gf_query(table.pointer, gf_point(lat: 450_000_000, lon: 0), 0, nil, 0, &count), GF_OK, "empty answer")
        #expect(count == 0)
        expectStatus(gf_table_verify(table.pointer), GF_OK, "verify")
    }

    @Test("Every status has its name and a one-line message; unknown values are GF_UNKNOWN")
    func statusNamesAndMessages() {
        let named: [(gf_status, String)] = [
            (GF_OK, "GF_OK"), (GF_ERR_NULL, "GF_ERR_NULL"), (GF_ERR_LATITUDE, "GF_ERR_LATITUDE"),
            (GF_ERR_LONGITUDE, "GF_ERR_LONGITUDE"), (GF_ERR_RADIUS, "GF_ERR_RADIUS"), (GF_ERR_MARGIN, "GF_ERR_MARGIN"),
            (GF_ERR_CAPACITY, "GF_ERR_CAPACITY"), (GF_ERR_HANDLE, "GF_ERR_HANDLE"), (GF_ERR_NOMEM, "GF_ERR_NOMEM"),
            (GF_ERR_TRUNCATED, "GF_ERR_TRUNCATED"), (GF_ERR_CORRUPT, "GF_ERR_CORRUPT"),
            (GF_ERR_SHAPE, "GF_ERR_SHAPE"), (GF_ERR_KIND, "GF_ERR_KIND"),
        ]
        var messages: Set<String> = []
        for (status, name) in named {
            #expect(String(cString: gf_status_name(status)) == name)
            let message = String(cString: gf_status_message(status))
            #expect(!message.isEmpty && !message.contains("\n"), "\(name): message \(message.debugDescription)")
            messages.insert(message)
        }
        #expect(messages.count == named.count, "two statuses share a message")
        for unknown in [13, 14, 0x7FFF_FFFF] as [UInt32] {
            let status = gf_status(rawValue: unknown)
            #expect(String(cString: gf_status_name(status)) == "GF_UNKNOWN", "status \(unknown)")
            let message = String(cString: gf_status_message(status))
            #expect(!message.isEmpty && !messages.contains(message), "status \(unknown): message \(message.debugDescription)")
        }
    }
}
