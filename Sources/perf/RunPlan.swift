/// How much to measure: the full run for numbers worth quoting, the quick run (under a minute) as a CI smoke test.
struct RunPlan {
    let fenceCounts: [Int]
    /// Fence counts of the clustered and mixed-radii datasets (the quick run leaves out their 10^6).
    let extraDatasetFenceCounts: [Int]
    /// Fixes in each stream; the core runs all of them, `coreRepetitions` times.
    let fixesPerStream: Int
    /// The monitor runs at most the first this-many fixes of each stream, `coreRepetitions` times, and only up to
    /// `monitorMaxFences` fences (building 10^6 regions and determining them on the first fix takes seconds).
    let monitorFixes: Int
    let monitorMaxFences: Int
    /// The monitor's cost grows with the regions a fix is in or near (each may change state), so it also gets a
    /// budget of core hits per stream: mixed-radii at 10^6 has about 400 per fix, and a full stream would take
    /// minutes. See `monitorFixes(coreHitsPerFix:)`.
    let monitorHitsPerStream: Int
    let coreRepetitions: Int
    /// The index peers (geos-strtree, boost-rstar, boost-quadratic, s2-cell-index) run every fix of the stream this
    /// many times: as many as the core, since a later pass finds in the cache what an earlier one loaded (the 8,192
    /// random fixes of a quick run touch about 13 MB of the core's table at 10^6 fences, which the last-level cache
    /// holds), so engines timed over different numbers of passes would not be timed on the same cache.
    var indexPeerRepetitions: Int { coreRepetitions }
    /// The naive engine costs fences x fixes haversines, so it gets a budget of those per stream instead of a fix
    /// count: all fixes at 10^3 fences, a few hundred at 10^6 (a few seconds). It runs its fixes once.
    let naiveHaversinesPerStream: Int
    /// c-scan likewise, in fence box tests per stream (about 0.3 ns each).
    let scanBoxTestsPerStream: Int
    /// The agreement check with each index peer runs on this many fixes from the start of each stream
    /// (naive-swift's and c-scan's run on all the fixes those engines ran).
    let indexPeerAgreementFixes: Int
    /// s2-cell-index runs only up to this many fences: S2RegionCoverer's covering of each cap dominates its build, and
    /// at 10^6 fences per dataset that alone would take minutes of a quick run.
    let s2MaxFences: Int
    /// Drive fixes queried untimed before timing, so the drive starts with the warm cache it has in steady state.
    let warmUpFixes = 1024
    let marginMillimetres: UInt32

    static func full(marginMillimetres: UInt32) -> RunPlan {
        RunPlan(fenceCounts: [1_000, 10_000, 100_000, 1_000_000],
                extraDatasetFenceCounts: [1_000, 10_000, 100_000, 1_000_000], fixesPerStream: 1 << 16,
                monitorFixes: 1 << 16, monitorMaxFences: 1_000_000,
                monitorHitsPerStream: 1_000_000, coreRepetitions: 5,
                naiveHaversinesPerStream: 100_000_000,
                scanBoxTestsPerStream: 2_000_000_000, indexPeerAgreementFixes: 4096, s2MaxFences: .max,
                marginMillimetres: marginMillimetres)
    }

    static func quick(marginMillimetres: UInt32) -> RunPlan {
        RunPlan(fenceCounts: [1_000, 10_000, 100_000, 1_000_000],
                extraDatasetFenceCounts: [1_000, 10_000, 100_000], fixesPerStream: 1 << 13,
                monitorFixes: 1 << 11, monitorMaxFences: 100_000,
                monitorHitsPerStream: 100_000, coreRepetitions: 3,
                naiveHaversinesPerStream: 5_000_000,
                scanBoxTestsPerStream: 50_000_000, indexPeerAgreementFixes: 512, s2MaxFences: 10_000,
                marginMillimetres: marginMillimetres)
    }

    /// The first this-many fixes of a stream are the naive engine's (and its agreement check's). At least 16, so
    /// that even at 10^6 fences there are batches to take a median of.
    func naiveFixes(fences: Int) -> Int {
        min(fixesPerStream, max(16, naiveHaversinesPerStream / max(fences, 1)))
    }

    /// The first this-many fixes of a stream are the monitor's: `monitorFixes`, fewer (down to 1024 beyond its
    /// warm-up) where the core finds many hits per fix.
    func monitorFixes(coreHitsPerFix: Double) -> Int {
        let affordable = Double(monitorHitsPerStream) / max(coreHitsPerFix, 1)
        return min(monitorFixes, max(warmUpFixes + 1024, Int(affordable)))
    }

    /// The first this-many fixes of a stream are c-scan's (and its agreement check's); at least 64.
    func scanFixes(fences: Int) -> Int {
        min(fixesPerStream, max(64, scanBoxTestsPerStream / max(fences, 1)))
    }

    /// 256 fixes per batch (a batch takes far longer than reading the clock), fewer when the fixes are few, so that
    /// there are always about 64 batches or more to take percentiles over.
    func batchSize(fixes: Int) -> Int {
        min(256, max(1, fixes / 64))
    }
}
