/// Runs every measurement of a plan: for each dataset and fence count, both engines on both workloads, plus the
/// agreement and allocation checks.
struct Suite {
    let plan: RunPlan
    let console: Console

    /// The rows of the report and the evidence for its checks.
    struct Outcome {
        var results: [BenchmarkResult] = []
        var agreements: [(key: String, agreement: Agreement)] = []
        /// Allocator calls counted across the core's timed query loop (of `queries` gf_query calls): must all be 0.
        var allocationsByQueries: [(key: String, allocations: UInt64, queries: Int)] = []
    }

    func run(_ datasets: [Dataset]) throws(CoreError) -> Outcome {
        var outcome = Outcome()
        for dataset in datasets {
            console.progress("\(dataset.name): fixes over \(dataset.area.describe())")
            // One stream per workload, shared by every fence count: rows differ only in the fences.
            let streams = Workload.allCases.map { workload in
                (workload, workload.fixes(count: plan.fixesPerStream, over: dataset.area,
                                          seedName: "\(dataset.name)/\(workload.rawValue)"))
            }
            for fenceCount in dataset.fenceCounts {
                try measure(dataset, fenceCount: fenceCount, streams: streams, into: &outcome)
            }
        }
        return outcome
    }

    /// Builds both engines over the same fences, then times each on each stream.
    private func measure(
        _ dataset: Dataset, fenceCount: Int, streams: [(Workload, [Position])], into outcome: inout Outcome
    ) throws(CoreError) {
        let fences = dataset.fences(count: fenceCount)
        let label = "\(dataset.name) \(fenceCountLabel(fenceCount))"
        let core = try CoreEngine(fences: fences)
        var (naive, naiveCost) = measureBuild { NaiveHaversineEngine(fences: fences) }
        console.progress("  \(label) fences: core built at "
            + "\(fixed(core.buildCost.nanosecondsPerFence(fenceCount), places: 0)) ns/fence, "
            + "\(fixed(core.buildCost.bytesPerFence(fenceCount), places: 1)) B/fence measured, "
            + "gf_table_memory \(fixed(Double(core.tableMemoryBytes) / Double(fenceCount), places: 1)) B/fence; "
            + "naive-swift \(fixed(naiveCost.bytesPerFence(fenceCount), places: 1)) B/fence")

        for (workload, fixes) in streams {
            let coreRow = try timeCore(core, fixes: fixes, workload: workload, dataset: dataset, fences: fenceCount,
                                       outcome: &outcome)
            let naiveFixCount = plan.naiveFixes(fences: fenceCount)
            let naiveRow = timeNaive(&naive, cost: naiveCost, fixes: Array(fixes.prefix(naiveFixCount)),
                                     workload: workload, dataset: dataset, fences: fenceCount)
            outcome.results += [coreRow, naiveRow]

            let agreement = try Agreement.compare(core: core, naive: &naive, fences: fences,
                                                  fixes: fixes.prefix(naiveFixCount),
                                                  marginMillimetres: plan.marginMillimetres)
            outcome.agreements.append((coreRow.comparisonKey, agreement))
            console.progress("  \(label) \(workload.rawValue): core "
                + "\(fixed(coreRow.nanosecondsPerFixMedian, places: 1)) ns/fix "
                + "(p99 \(fixed(coreRow.nanosecondsPerFixP99, places: 1))), naive-swift "
                + "\(fixed(naiveRow.nanosecondsPerFixMedian, places: 0)) ns/fix over \(naiveRow.fixes) fixes; "
                + "\(agreement.disagreeingFixes) of \(agreement.fixesCompared) fixes disagree near a boundary"
                + (agreement.unexplainedCount > 0 ? ", \(agreement.unexplainedCount) NOT near one" : ""))
        }
    }

    /// Times gf_query over the whole stream, `plan.coreRepetitions` times, and counts the allocations around the loop.
    private func timeCore(
        _ core: CoreEngine, fixes: [Position], workload: Workload, dataset: Dataset, fences: Int,
        outcome: inout Outcome
    ) throws(CoreError) -> BenchmarkResult {
        let margin = plan.marginMillimetres
        var timings = BatchTimings(fixCount: fixes.count, batchSize: plan.batchSize(fixes: fixes.count),
                                   repetitions: plan.coreRepetitions)
        if workload == .drive {
            _ = try core.countHits(fixes, 0..<min(plan.warmUpFixes, fixes.count), marginMillimetres: margin)
        }
        let allocationsBefore = AllocationCounter.count
        let hits = try timeInBatches(into: &timings) { (batch: Range<Int>) throws(CoreError) -> Int in
            try core.countHits(fixes, batch, marginMillimetres: margin)
        }
        let allocationsAfter = AllocationCounter.count

        let row = BenchmarkResult(
            engine: .core, dataset: dataset.name, workload: workload, fences: fences, fixes: fixes.count,
            nanosecondsPerFixMedian: timings.median, nanosecondsPerFixP99: timings.p99,
            bytesPerFence: core.buildCost.bytesPerFence(fences),
            buildNanosecondsPerFence: core.buildCost.nanosecondsPerFence(fences), hits: hits,
            tableMemoryPerFence: Double(core.tableMemoryBytes) / Double(fences))
        outcome.allocationsByQueries.append((row.comparisonKey, allocationsAfter &- allocationsBefore,
                                            fixes.count * plan.coreRepetitions))
        return row
    }

    /// Times the naive loop once over its (shorter) prefix of the stream.
    private func timeNaive(
        _ naive: inout NaiveHaversineEngine, cost: BuildCost, fixes: [Position], workload: Workload,
        dataset: Dataset, fences: Int
    ) -> BenchmarkResult {
        let marginMetres = Double(plan.marginMillimetres) / 1000
        var timings = BatchTimings(fixCount: fixes.count, batchSize: plan.batchSize(fixes: fixes.count),
                                   repetitions: 1)
        _ = naive.query(fixes[0], marginMetres: marginMetres)  // sizes the reused hit array before timing
        let hits = timeInBatches(into: &timings) { batch in
            var total = 0
            for index in batch {
                total += naive.query(fixes[index], marginMetres: marginMetres)
            }
            return total
        }
        return BenchmarkResult(
            engine: .naiveSwift, dataset: dataset.name, workload: workload, fences: fences, fixes: fixes.count,
            nanosecondsPerFixMedian: timings.median, nanosecondsPerFixP99: timings.p99,
            bytesPerFence: cost.bytesPerFence(fences), buildNanosecondsPerFence: cost.nanosecondsPerFence(fences),
            hits: hits, tableMemoryPerFence: nil)
    }
}
