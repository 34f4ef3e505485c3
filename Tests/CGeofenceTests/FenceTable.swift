// An owning wrapper of gf_table for tests, and gf_query results as plain comparable Swift values.
import CGeofence
import Testing

/// One gf_table, destroyed when the test lets go of it, so early exits (throws, failed requirements) leak nothing.
final class FenceTable {
    let pointer: OpaquePointer

    init(capacity: UInt32, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var created: OpaquePointer?
        try requireOK(gf_table_create(capacity, &created), "gf_table_create(\(capacity))", sourceLocation: sourceLocation)
        guard let created else { throw CoreCallFailed(description: "gf_table_create returned GF_OK and no table") }
        pointer = created
    }

    deinit {
        gf_table_destroy(pointer)
    }

    var count: UInt32 { gf_table_count(pointer) }

    /// Adds a fence that the test expects to be accepted.
    func add(_ centre: gf_point, radiusMM: UInt32, sourceLocation: SourceLocation = #_sourceLocation) throws -> gf_handle {
        var handle = GF_HANDLE_NONE
        try requireOK(
            gf_fence_add(pointer, centre, radiusMM, &handle), "gf_fence_add(\(centre.text), \(radiusMM))",
            sourceLocation: sourceLocation)
        return handle
    }

    /// Every hit of a query, growing the buffer while the core answers GF_ERR_TRUNCATED. Checks on the way that the
    /// reported count fits the buffer whenever the core says GF_OK.
    func query(_ fix: gf_point, marginMM: UInt32, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Hit] {
        var buffer = [gf_hit](repeating: gf_hit(handle: GF_HANDLE_NONE, distance_mm: 0), count: 16)
        while true {
            var count = Int.max
            let status = buffer.withUnsafeMutableBufferPointer { hits in
                gf_query(pointer, fix, marginMM, hits.baseAddress, hits.count, &count)
            }
            if status == GF_ERR_TRUNCATED && count > buffer.count {
                buffer = [gf_hit](repeating: gf_hit(handle: GF_HANDLE_NONE, distance_mm: 0), count: count)
                continue
            }
            try requireOK(status, "gf_query(\(fix.text), margin \(marginMM))", sourceLocation: sourceLocation)
            guard count <= buffer.count else {
                throw CoreCallFailed(description: "gf_query said GF_OK with count \(count) > capacity \(buffer.count)")
            }
            return buffer[..<count].map(Hit.init)
        }
    }
}

/// One gf_hit as a value that can be sorted and compared, so a hit list can be checked as a set.
struct Hit: Hashable, Comparable, CustomStringConvertible {
    let handle: gf_handle
    let distanceMM: Int32

    init(handle: gf_handle, distanceMM: Int32) {
        self.handle = handle
        self.distanceMM = distanceMM
    }

    init(_ hit: gf_hit) {
        self.init(handle: hit.handle, distanceMM: hit.distance_mm)
    }

    static func < (lhs: Hit, rhs: Hit) -> Bool {
        (lhs.handle, lhs.distanceMM) < (rhs.handle, rhs.distanceMM)
    }

    var description: String { "\(hex(handle)):\(distanceMM)mm" }
}
