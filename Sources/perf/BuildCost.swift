/// What building an engine's fence storage cost: the time it took and the heap bytes it kept.
struct BuildCost {
    let nanoseconds: Int
    let heapBytes: Int

    func nanosecondsPerFence(_ fences: Int) -> Double { Double(nanoseconds) / Double(max(fences, 1)) }
    func bytesPerFence(_ fences: Int) -> Double { Double(heapBytes) / Double(max(fences, 1)) }
}

/// Runs `build` once, timing it and weighing the heap bytes it leaves allocated. Whatever `build` returns stays alive
/// past the second heap reading, so the bytes are those of the finished structure; temporary buffers it freed (old
/// arrays left behind by growth) do not count. Callers allocate their own bookkeeping before calling.
func measureBuild<Built, Failure: Error>(
    _ build: () throws(Failure) -> Built
) throws(Failure) -> (built: Built, cost: BuildCost) {
    let bytesBefore = HeapUsage.bytesInUse()
    let begin = monotonicNanoseconds()
    let built = try build()
    let end = monotonicNanoseconds()
    let bytesAfter = HeapUsage.bytesInUse()
    return (built, BuildCost(nanoseconds: end - begin, heapBytes: bytesAfter - bytesBefore))
}
