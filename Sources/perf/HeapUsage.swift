import CPerfCxxPeers
import CPerfSupport

/// Bytes this process has taken from malloc and not freed, measured by glibc itself (mallinfo2, read by
/// perf_heap_bytes_in_use in the perf-only CPerfSupport target), so that "bytes per fence" is what the allocator
/// really hands out (headers, rounding and growth slack included), not what a table believes it allocated.
///
/// bytes in use = uordblks (chunks in use in the heap) + hblkhd (blocks big enough that malloc gave each its own
/// mmap: the arrays of a 10^6-fence table are such blocks, and uordblks alone would not see them).
///
/// What this cannot see: a block allocated and freed again between two readings. Whether code allocates at all is
/// AllocationCounter's question, which counts calls instead.
enum HeapUsage {
    static func bytesInUse() -> Int {
        perf_heap_bytes_in_use()
    }

    /// Proves the readings mean what we think before trusting them: a small block must show up in uordblks and a
    /// large one in hblkhd, each with its size plus at most a little allocator overhead, whether Swift allocated it
    /// or C++'s operator new (as the boost and S2 peers allocate: pp_cxx_new_block). If the optimiser ever removed
    /// these unused blocks, the test would fail loudly rather than pass.
    static func selfTest() throws(MeasurementUnavailable) {
        for size in [4000, 8 << 20] {
            for allocator in ["Swift", "C++ operator new"] {
                let before = bytesInUse()
                let block: UnsafeMutableRawPointer? = allocator == "Swift"
                    ? UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16) : pp_cxx_new_block(size)
                let after = bytesInUse()
                if allocator == "Swift" { block?.deallocate() } else { pp_cxx_delete_block(block) }
                let growth = after - before
                guard block != nil, growth >= size, growth <= size + 8192 else {
                    throw MeasurementUnavailable(description: "mallinfo2() readings are not trustworthy here (a "
                        + "\(size)-byte block from \(allocator) changed bytes in use by \(growth)); refusing to "
                        + "report memory numbers")
                }
            }
        }
    }
}
