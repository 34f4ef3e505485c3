/// How much to measure: the full run for numbers worth quoting, the quick run (under a minute) as a CI smoke test.
struct RunPlan {
    let fenceCounts: [Int]
    /// Fixes in each stream; the core runs all of them, `coreRepetitions` times.
    let fixesPerStream: Int
    let coreRepetitions: Int
    /// The naive engine costs fences x fixes haversines, so it gets a budget of those per stream instead of a fix
    /// count: all fixes at 10^3 fences, a few hundred at 10^6 (a few seconds). It runs its fixes once.
    let naiveHaversinesPerStream: Int
    /// Drive fixes queried untimed before timing, so the drive starts with the warm cache it has in steady state.
    let warmUpFixes = 1024
    let marginMillimetres: UInt32

    static func full(marginMillimetres: UInt32) -> RunPlan {
        RunPlan(fenceCounts: [1_000, 10_000, 100_000, 1_000_000], fixesPerStream: 1 << 16, coreRepetitions: 5,
                naiveHaversinesPerStream: 100_000_000, marginMillimetres: marginMillimetres)
    }

    static func quick(marginMillimetres: UInt32) -> RunPlan {
        RunPlan(fenceCounts: [1_000, 10_000, 100_000, 1_000_000], fixesPerStream: 1 << 14, coreRepetitions: 3,
                naiveHaversinesPerStream: 10_000_000, marginMillimetres: marginMillimetres)
    }

    /// The first this-many fixes of a stream are the naive engine's (and the agreement check's). At least 16, so
    /// that even at 10^6 fences there are batches to take a median of.
    func naiveFixes(fences: Int) -> Int {
        min(fixesPerStream, max(16, naiveHaversinesPerStream / max(fences, 1)))
    }

    /// 256 fixes per batch (a batch takes far longer than reading the clock), fewer when the fixes are few, so that
    /// there are always about 64 batches or more to take percentiles over.
    func batchSize(fixes: Int) -> Int {
        min(256, max(1, fixes / 64))
    }
}
