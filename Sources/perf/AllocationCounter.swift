import CPerfCxxPeers
import CPerfSupport

/// The exact number of allocator calls (malloc, calloc, realloc, aligned_alloc, posix_memalign, memalign) the whole
/// process has made so far: the C core, libc and the Swift runtime alike. The perf-only CPerfSupport target defines
/// those six functions in the perf executable, counting each call and forwarding it to glibc's own implementation
/// (see Sources/CPerfSupport/include/perf_support.h). The difference of two readings is exact, so "no allocation on
/// the hot path" is checked as a count of 0, not inferred from the heap's size.
enum AllocationCounter {
    static var count: UInt64 {
        perf_allocation_count()
    }

    /// Proves the counter counts before trusting it: each of the six functions, called the way libc and the Swift
    /// runtime reach it, is counted exactly once (perf_allocation_counter_check), and so is one block allocated by
    /// Swift (the runtime's swift_slowAlloc, in libswiftCore, calling malloc) and one by C++'s operator new
    /// (libstdc++ calling malloc, as the boost and S2 peers allocate).
    static func selfTest() throws(MeasurementUnavailable) {
        if let problem = perf_allocation_counter_check() {
            throw MeasurementUnavailable(description: String(cString: problem) + "; refusing to count allocations")
        }
        let before = count
        let block = UnsafeMutableRawPointer.allocate(byteCount: 4000, alignment: 16)
        let after = count
        block.deallocate()
        guard after &- before == 1 else {
            throw MeasurementUnavailable(description: "allocation counter: one Swift allocation counted as "
                + "\(after &- before) allocator calls; refusing to count allocations")
        }
        let beforeCxx = count
        let cxxBlock = pp_cxx_new_block(4000)
        let afterCxx = count
        pp_cxx_delete_block(cxxBlock)
        guard cxxBlock != nil, afterCxx &- beforeCxx == 1 else {
            throw MeasurementUnavailable(description: "allocation counter: one C++ operator new counted as "
                + "\(afterCxx &- beforeCxx) allocator calls; refusing to count allocations")
        }
    }
}

/// A measurement perf cannot trust on this system, found by a self test before any number is reported.
struct MeasurementUnavailable: Error, CustomStringConvertible {
    let description: String
}
