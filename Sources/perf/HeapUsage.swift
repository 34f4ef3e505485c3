import Glibc

/// Bytes this process has taken from malloc and not freed, measured by glibc itself (mallinfo2), so that "bytes per
/// fence" is what the allocator really hands out (headers, rounding and growth slack included), not what a table
/// believes it allocated.
///
/// bytes in use = uordblks (chunks in use in the heap) + hblkhd (blocks big enough that malloc gave each its own
/// mmap: the arrays of a 10^6-fence table are such blocks, and uordblks alone would not see them).
///
/// What this cannot see: an allocation that is freed again before the second reading. So "no bytes retained around
/// the query loop" proves the hot path leaks and keeps nothing, but not that it never calls malloc; an exact count
/// needs a malloc wrapper in a C target (Swift code may not define `malloc`).
enum HeapUsage {
    /// mallinfo2() returns `struct mallinfo2`, ten size_t in memory. Swift's Glibc module does not import <malloc.h>,
    /// so the function is found with dlsym and called through a C function type returning a larger imported struct
    /// (sockaddr_storage, 128 bytes): the compiler then passes a return slot in memory exactly as for the real struct
    /// (rdi on x86-64, x8 on arm64), mallinfo2 fills its first 80 bytes, and we read the two fields we need.
    /// `selfTest()` checks the readings against known allocations before any number is reported.
    private typealias MallInfo2 = @convention(c) () -> sockaddr_storage
    private static let fieldCount = 10
    private static let hblkhdField = 4    // field order of struct mallinfo2: arena, ordblks, smblks, hblks, hblkhd,
    private static let uordblksField = 7  // usmblks, fsmblks, uordblks, fordblks, keepcost

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The current bytes in use. 0 when this C library has no mallinfo2 (glibc before 2.33, musl): `selfTest()`
    /// refuses to go on in that case before any number is measured.
    static func bytesInUse() -> Int {
        guard let mallInfo2 else { return 0 }
        var slot = mallInfo2()
        return withUnsafeBytes(of: &slot) { raw in
            raw.load(fromByteOffset: uordblksField * MemoryLayout<Int>.stride, as: Int.self)
                + raw.load(fromByteOffset: hblkhdField * MemoryLayout<Int>.stride, as: Int.self)
        }
    }

    /// Proves the readings mean what we think before trusting them: a small block must show up in uordblks and a
    /// large one in hblkhd, each with its size plus at most a little allocator overhead.
    static func selfTest() throws(Unavailable) {
        guard MemoryLayout<sockaddr_storage>.size >= fieldCount * MemoryLayout<Int>.stride else {
            throw Unavailable(description: "sockaddr_storage is too small to receive struct mallinfo2")
        }
        guard mallInfo2 != nil, let opaqueMalloc else {
            throw Unavailable(description: "this C library has no mallinfo2(): perf needs glibc 2.33 or later")
        }
        for size in [4000, 8 << 20] {
            let before = bytesInUse()
            let block = opaqueMalloc(size)
            let after = bytesInUse()
            free(block)
            let growth = after - before
            guard block != nil, growth >= size, growth <= size + 8192 else {
                throw Unavailable(description: "mallinfo2() readings are not trustworthy here (malloc(\(size)) "
                    + "changed bytes in use by \(growth)); refusing to report memory numbers")
            }
        }
    }

    /// Looked up once, before any measurement, so that no reading is disturbed by the dynamic linker's own work.
    private static let mallInfo2: MallInfo2? = {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "mallinfo2") else { return nil }
        return unsafeBitCast(symbol, to: MallInfo2.self)
    }()

    /// malloc called through a pointer the optimiser cannot see through: it deletes a plain malloc/free pair whose
    /// block is never used, which would make the self test measure nothing.
    private static let opaqueMalloc: (@convention(c) (Int) -> UnsafeMutableRawPointer?)? = {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "malloc") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> UnsafeMutableRawPointer?).self)
    }()
}
