import Glibc

/// Nanoseconds on CLOCK_MONOTONIC: never steps with NTP, and reading it costs about 20 ns through the vDSO, which
/// is why fixes are timed in batches rather than one by one.
func monotonicNanoseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec * 1_000_000_000 + now.tv_nsec
}

/// Per-fix times of many batches: the median says what a fix usually costs, the 99th percentile how bad the slow
/// batches get (a cold cell, an interrupt, a page fault).
struct BatchTimings {
    let fixCount: Int
    let batchSize: Int
    let repetitions: Int
    /// ns per fix of each batch, in the order they ran.
    private(set) var nanosecondsPerFix: [Double] = []

    /// Reserves room for every batch up front, so that recording one never allocates inside a measured region.
    init(fixCount: Int, batchSize: Int, repetitions: Int) {
        self.fixCount = fixCount
        self.batchSize = batchSize
        self.repetitions = repetitions
        nanosecondsPerFix.reserveCapacity(repetitions * ((fixCount + batchSize - 1) / batchSize))
    }

    mutating func record(nanoseconds: Int, fixes: Int) {
        nanosecondsPerFix.append(Double(nanoseconds) / Double(fixes))
    }

    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }

    func percentile(_ percent: Double) -> Double {
        nearestRankPercentile(percent, of: nanosecondsPerFix)
    }
}

/// Nearest-rank percentile: a value that was actually measured, never an interpolation between two batches. NaN for
/// no values.
func nearestRankPercentile(_ percent: Double, of values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}

/// Times `queryBatch` over the fixes 0..<timings.fixCount in batches, timings.repetitions times over, recording
/// into `timings` (which has room for every batch already). `queryBatch` gets the index range of one batch and
/// returns the hits it found. Returns the hits of one pass (later repetitions repeat the same queries).
func timeInBatches<Failure: Error>(
    into timings: inout BatchTimings, _ queryBatch: (Range<Int>) throws(Failure) -> Int
) throws(Failure) -> Int {
    var hitsPerPass = 0
    for repetition in 0..<timings.repetitions {
        for start in stride(from: 0, to: timings.fixCount, by: timings.batchSize) {
            let batch = start..<min(start + timings.batchSize, timings.fixCount)
            let begin = monotonicNanoseconds()
            let hits = try queryBatch(batch)
            let end = monotonicNanoseconds()
            timings.record(nanoseconds: end - begin, fixes: batch.count)
            if repetition == 0 { hitsPerPass += hits }
        }
    }
    return hitsPerPass
}
