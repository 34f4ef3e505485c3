import CGeofence

/// A call into the core that did not return GF_OK.
struct CoreError: Error, CustomStringConvertible {
    let call: String
    let status: gf_status

    var description: String {
        "\(call) returned \(String(cString: gf_status_name(status))): \(String(cString: gf_status_message(status)))"
    }
}

/// The engine under test: the fences in one gf_table, each fix answered by one query into a reused buffer: on a
/// drive (one vehicle's consecutive fixes) gf_query_tracked with one cursor, as `RegionMonitor` queries; on the other
/// streams (fixes from anywhere, no vehicle to follow) gf_query.
final class CoreEngine {
    /// Room for every hit of one fix. The densest fix of these workloads has a few dozen; a fix with more is reported
    /// as an error (GF_ERR_TRUNCATED) rather than quietly under-counted.
    static let hitCapacity = 4096

    private let table: OpaquePointer
    private let hitBuffer: UnsafeMutableBufferPointer<gf_hit>
    /// The drive's cursor (zero-filled: it remembers nothing yet). Behind a pointer rather than a stored `var`: a
    /// class's stored property passed `&` costs a dynamic exclusivity check (swift_beginAccess / swift_endAccess) on
    /// every call, which is not the core's time.
    private let cursor: UnsafeMutablePointer<gf_cursor>
    /// The fence index each handle stands for: only the agreement check needs it, never the timed loop.
    private let fenceIndexByHandle: [gf_handle: Int]
    /// Time and heap bytes of gf_table_create plus one gf_fence_add per fence.
    let buildCost: BuildCost

    init(fences: [Fence]) throws(CoreError) {
        var handles: [gf_handle] = []
        handles.reserveCapacity(fences.count)  // before measuring: the measured bytes are the table's alone
        let (table, cost) = try measureBuild { () throws(CoreError) in try Self.makeTable(fences, handles: &handles) }
        self.table = table
        buildCost = cost
        hitBuffer = .allocate(capacity: Self.hitCapacity)
        cursor = .allocate(capacity: 1)
        cursor.initialize(to: gf_cursor())
        fenceIndexByHandle = Dictionary(uniqueKeysWithValues: zip(handles, handles.indices))
    }

    deinit {
        gf_table_destroy(table)
        hitBuffer.deallocate()
        cursor.deallocate()
    }

    /// What the table says it allocated (gf_table_memory), to print beside the measured heap bytes.
    var tableMemoryBytes: Int { gf_table_memory(table) }

    /// Queries every fix of `range`, returning the total hits. This is the loop the benchmark times. `tracking`:
    /// the fixes are one vehicle's, in order (gf_query_tracked).
    func countHits(
        _ fixes: [Position], _ range: Range<Int>, marginMillimetres: UInt32, tracking: Bool
    ) throws(CoreError) -> Int {
        var total = 0
        for index in range {
            var count = 0
            let status = tracking
                ? gf_query_tracked(table, cursor, fixes[index].point, marginMillimetres, hitBuffer.baseAddress,
                                   hitBuffer.count, &count)
                : gf_query(table, fixes[index].point, marginMillimetres, hitBuffer.baseAddress, hitBuffer.count,
                           &count)
            guard status == GF_OK else {
                throw CoreError(call: tracking ? "gf_query_tracked" : "gf_query", status: status)
            }
            total += count
        }
        return total
    }

    /// The fences hit by one fix, as (fence index, signed distance in mm), sorted by index: for the agreement check.
    func hits(
        at fix: Position, marginMillimetres: UInt32
    ) throws(CoreError) -> [(fenceIndex: Int, distanceMillimetres: Int32)] {
        var count = 0
        let status = gf_query(table, fix.point, marginMillimetres, hitBuffer.baseAddress, hitBuffer.count, &count)
        guard status == GF_OK else { throw CoreError(call: "gf_query", status: status) }
        return hitBuffer.prefix(count)
            .map { (fenceIndex: fenceIndexByHandle[$0.handle] ?? -1, distanceMillimetres: $0.distance_mm) }
            .sorted { $0.fenceIndex < $1.fenceIndex }
    }

    /// A table holding `fences` in order, their handles appended to `handles`. On failure nothing is left allocated.
    private static func makeTable(_ fences: [Fence], handles: inout [gf_handle]) throws(CoreError) -> OpaquePointer {
        var created: OpaquePointer?
        let createStatus = gf_table_create(UInt32(max(fences.count, 1)), &created)
        guard createStatus == GF_OK, let table = created else {
            throw CoreError(call: "gf_table_create", status: createStatus)
        }
        for fence in fences {
            var handle: gf_handle = 0
            let status = gf_fence_add(table, fence.centre.point, fence.radiusMillimetres, &handle)
            guard status == GF_OK else {
                gf_table_destroy(table)
                throw CoreError(call: "gf_fence_add", status: status)
            }
            handles.append(handle)
        }
        return table
    }
}
