/// Runs every measurement of a plan: for each dataset and fence count, every engine on both workloads, plus the
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

    func run(_ datasets: [Dataset]) throws -> Outcome {
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

    /// Builds the engines over the same fences, then times each on each stream.
    private func measure(
        _ dataset: Dataset, fenceCount: Int, streams: [(Workload, [Position])], into outcome: inout Outcome
    ) throws {
        let fences = dataset.fences(count: fenceCount)
        let label = "\(dataset.name) \(fenceCountLabel(fenceCount))"
        let core = try CoreEngine(fences: fences)
        var (naive, naiveCost) = measureBuild { NaiveHaversineEngine(fences: fences) }
        console.progress("  \(label) fences: core built at "
            + "\(fixed(core.buildCost.nanosecondsPerFence(fenceCount), places: 0)) ns/fence, "
            + "\(fixed(core.buildCost.bytesPerFence(fenceCount), places: 1)) B/fence measured, "
            + "gf_table_memory \(fixed(Double(core.tableMemoryBytes) / Double(fenceCount), places: 1)) B/fence; "
            + "naive-swift \(fixed(naiveCost.bytesPerFence(fenceCount), places: 1)) B/fence")
        let monitor = try buildMonitor(fences, label: label)

        for (workload, fixes) in streams {
            let coreRow = try timeCore(core, fixes: fixes, workload: workload, dataset: dataset, fences: fenceCount,
                                       outcome: &outcome)
            let naiveFixCount = plan.naiveFixes(fences: fenceCount)
            let naiveRow = timeNaive(&naive, cost: naiveCost, fixes: Array(fixes.prefix(naiveFixCount)),
                                     workload: workload, dataset: dataset, fences: fenceCount)
            outcome.results.append(coreRow)
            outcome.results.append(timeMonitor(monitor, fixes: fixes, workload: workload, dataset: dataset,
                                               fences: fenceCount, label: label))
            outcome.results.append(naiveRow)

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

    /// A RegionMonitor holding `fences`, one region each.
    private func buildMonitor(_ fences: [Fence], label: String) throws -> MonitorBench {
        let monitor: MonitorBench
        do {
            monitor = try MonitorBench(fences: fences)
        } catch {
            throw MonitorBuildError(underlying: error)
        }
        console.progress("  \(label) fences: monitor built at "
            + "\(fixed(monitor.buildCost.nanosecondsPerFence(fences.count), places: 0)) ns/fence, "
            + "\(fixed(monitor.buildCost.bytesPerFence(fences.count), places: 1)) B/fence measured")
        return monitor
    }

    /// Times the monitor on one stream: the monitor's first fix ever (every region determined) apart, then
    /// `plan.warmUpFixes` untimed, then `plan.coreRepetitions` timed passes, then one untimed pass that sorts the
    /// allocator calls by fixes with and without events.
    private func timeMonitor(
        _ monitor: MonitorBench, fixes: [Position], workload: Workload, dataset: Dataset, fences: Int, label: String
    ) -> BenchmarkResult {
        monitor.secondsPerFix = MonitorBench.secondsPerFix(workload)
        var firstFix: MonitorBench.FirstFix?
        var warmUp = 0..<min(plan.warmUpFixes, fixes.count)
        if !monitor.hasSeenFix {
            firstFix = monitor.processFirstFix(fixes[0])
            warmUp = warmUp.dropFirst()
        } else {
            monitor.pause()
        }
        for index in warmUp {
            monitor.process(fixes[index])
        }
        let passes = monitor.timePasses(fixes, repetitions: plan.coreRepetitions,
                                        batchSize: plan.batchSize(fixes: fixes.count))
        let split = monitor.splitAllocations(fixes)
        let allocations = passes.allocationsPerFixByBatch
        let figures = MonitorFigures(
            allocationsPerFixMedian: nearestRankPercentile(50, of: allocations),
            allocationsPerFixMean: allocations.reduce(0, +) / Double(max(allocations.count, 1)),
            firstFix: firstFix, split: split)
        let row = BenchmarkResult(
            engine: .monitor, dataset: dataset.name, workload: workload, fences: fences, fixes: fixes.count,
            nanosecondsPerFixMedian: passes.timings.median, nanosecondsPerFixP99: passes.timings.p99,
            bytesPerFence: monitor.buildCost.bytesPerFence(fences),
            buildNanosecondsPerFence: monitor.buildCost.nanosecondsPerFence(fences), hits: passes.events,
            tableMemoryPerFence: nil, monitor: figures)
        var line = "  \(label) \(workload.rawValue): monitor \(fixed(row.nanosecondsPerFixMedian, places: 1)) ns/fix "
            + "(p99 \(fixed(row.nanosecondsPerFixP99, places: 1))), "
            + "\(row.hits) events, allocations per fix median \(fixed(figures.allocationsPerFixMedian, places: 3)) "
            + "mean \(fixed(figures.allocationsPerFixMean, places: 3))"
        line += "; untimed pass: \(split.allocationsWithoutEvents) allocator calls on \(split.fixesWithoutEvents) "
            + "fixes without events, \(split.allocationsWithEvents) on \(split.fixesWithEvents) fixes with "
            + "\(split.events) events"
        if let firstFix {
            line += "; first fix \(fixed(Double(firstFix.nanoseconds) / 1e6, places: 2)) ms for \(firstFix.events) "
                + "determined events, \(firstFix.allocations) allocator calls, "
                + "\(fixed(Double(firstFix.heapBytesKept) / Double(fences), places: 1)) B/fence kept"
        }
        console.progress(line)
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

/// RegionMonitor refused a region perf built from a fence: a bug in perf's conversion or in the monitor.
struct MonitorBuildError: Error, CustomStringConvertible {
    let underlying: any Error

    var description: String { "RegionMonitor.startMonitoringOrThrow(for:) failed: \(underlying)" }
}
