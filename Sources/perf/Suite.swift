import CGeofence
import GeofencingInputs

/// Runs every measurement of a plan: for each dataset and fence count, every engine on every workload, plus the
/// agreement and allocation checks.
struct Suite {
    let plan: RunPlan
    let console: Console

    /// The rows of the report and the evidence for its checks.
    struct Outcome {
        var results: [BenchmarkResult] = []
        /// One per peer, fence set and workload: the peer's hits against the core's on the same fixes.
        var agreements: [(key: String, agreement: Agreement)] = []
        /// Allocator calls counted across the core's timed query loop (of `queries` gf_query calls): must all be 0.
        var allocationsByQueries: [(key: String, allocations: UInt64, queries: Int)] = []
        /// Per fence set: the worst |gf_distance - intended distance| of its boundary probes, metres (nil: refused).
        var boundaryPlacement: [(key: String, worstMetres: Double?)] = []
    }

    func run(_ datasets: [Dataset]) throws -> Outcome {
        var outcome = Outcome()
        for dataset in datasets {
            console.progress("\(dataset.name): random fixes over \(dataset.area.describe()); drive over "
                + dataset.driveArea.describe())
            // Drive and random streams are shared by every fence count: rows differ only in the fences.
            let sharedStreams = [Workload.drive, .random].map { workload in
                (workload, workload.fixes(count: plan.fixesPerStream, over: dataset.fixArea(workload), fences: [],
                                          seedName: "\(dataset.name)/\(workload.rawValue)"))
            }
            for fenceCount in dataset.fenceCounts {
                try measure(dataset, fenceCount: fenceCount, sharedStreams: sharedStreams, into: &outcome)
            }
        }
        return outcome
    }

    /// Builds the engines over the same fences, then times each on each stream and compares the peers' hits with
    /// the core's.
    private func measure(
        _ dataset: Dataset, fenceCount: Int, sharedStreams: [(Workload, [Position])], into outcome: inout Outcome
    ) throws {
        let fences = dataset.fences(count: fenceCount)
        let label = "\(dataset.name) \(fenceCountLabel(fenceCount))"
        let margin = plan.marginMillimetres
        let core = try CoreEngine(fences: fences)
        var (naive, naiveCost) = measureBuild { NaiveHaversineEngine(fences: fences) }
        let arrays = FenceArrays(fences)
        let scan = try CScanEngine(arrays, marginMillimetres: margin)
        let geos = try GEOSStrtreeEngine(arrays, marginMillimetres: margin)
        let indexPeers = try makeIndexPeers(arrays, marginMillimetres: margin,
                                            withS2: fenceCount <= plan.s2MaxFences)
        console.progress("  \(label) fences: core built at "
            + "\(fixed(core.buildCost.nanosecondsPerFence(fenceCount), places: 0)) ns/fence, "
            + "\(fixed(core.buildCost.bytesPerFence(fenceCount), places: 1)) B/fence measured, "
            + "gf_table_memory \(fixed(Double(core.tableMemoryBytes) / Double(fenceCount), places: 1)) B/fence; "
            + "geos-strtree \(fixed(geos.buildCost.nanosecondsPerFence(fenceCount), places: 0)) ns/fence, "
            + "\(fixed(geos.buildCost.bytesPerFence(fenceCount), places: 1)) B/fence; "
            + indexPeers.map { peer in
                "\(peer.engine.rawValue) \(fixed(peer.buildCost.nanosecondsPerFence(fenceCount), places: 0)) ns/fence, "
                    + "\(fixed(peer.buildCost.bytesPerFence(fenceCount), places: 1)) B/fence"
                    + ((peer as? S2CellIndexEngine).map { ", \(fixed($0.cellsPerFence(fenceCount), places: 2)) cells/fence" }
                        ?? "") + "; "
            }.joined()
            + "c-scan \(fixed(scan.buildCost.bytesPerFence(fenceCount), places: 1)) B/fence; "
            + "naive-swift \(fixed(naiveCost.bytesPerFence(fenceCount), places: 1)) B/fence")
        let monitor = fenceCount <= plan.monitorMaxFences ? try buildMonitor(fences, label: label) : nil

        var probeGenerator = SplitMix64(seedNamed: "\(dataset.name)/boundary/\(fenceCount)")
        let probes = BoundaryProbe.probes(count: plan.fixesPerStream, around: fences, generator: &probeGenerator)
        outcome.boundaryPlacement.append((label, BoundaryProbe.worstPlacementErrorMetres(probes, fences: fences)))

        for (workload, fixes) in sharedStreams + [(Workload.boundary, probes.map(\.position))] {
            let points = fixes.map(\.point)
            let coreRow = try timeCore(core, fixes: fixes, workload: workload, dataset: dataset, fences: fenceCount,
                                       outcome: &outcome)
            let coreHitsPerFix = Double(coreRow.hits) / Double(max(coreRow.fixes, 1))
            let monitorRow = monitor.map { monitor in
                timeMonitor(monitor, fixes: Array(fixes.prefix(plan.monitorFixes(coreHitsPerFix: coreHitsPerFix))),
                            workload: workload, dataset: dataset, fences: fenceCount, label: label)
            }
            try geos.loadFixes(points)
            let geosRow = try timeGEOS(geos, fixCount: points.count, workload: workload, dataset: dataset,
                                       fences: fenceCount)
            let peerRows = try indexPeers.map { peer in
                try timeIndexPeer(peer, points: points, workload: workload, dataset: dataset, fences: fenceCount)
            }
            let scanRow = try timeScan(scan, points: Array(points.prefix(plan.scanFixes(fences: fenceCount))),
                                       workload: workload, dataset: dataset, fences: fenceCount)
            let naiveRow = timeNaive(&naive, cost: naiveCost,
                                     fixes: Array(fixes.prefix(plan.naiveFixes(fences: fenceCount))),
                                     workload: workload, dataset: dataset, fences: fenceCount)
            let rows = ([coreRow, monitorRow, geosRow] + peerRows + [scanRow, naiveRow]).compactMap { $0 }
            outcome.results += rows

            let indexPeerFixes = 0..<min(plan.indexPeerAgreementFixes, fixes.count)
            let indexPeerAgreements = try indexPeers.map { peer in
                try Agreement.compare(peer: peer.engine, core: core, fences: fences, fixes: fixes,
                                      fixIndices: indexPeerFixes,
                                      marginMillimetres: margin) { (index: Int) throws(PeerError) -> [Int] in
                    try peer.hitFenceIndices(at: points[index])
                }
            }
            let agreements = [
                try Agreement.compare(peer: .geosStrtree, core: core, fences: fences, fixes: fixes,
                                      fixIndices: indexPeerFixes,
                                      marginMillimetres: margin) { (index: Int) throws(PeerError) -> [Int] in
                    try geos.hitFenceIndices(atLoadedFix: index)
                },
            ] + indexPeerAgreements + [
                try Agreement.compare(peer: .cScan, core: core, fences: fences, fixes: fixes,
                                      fixIndices: 0..<scanRow.fixes,
                                      marginMillimetres: margin) { (index: Int) throws(PeerError) -> [Int] in
                    try scan.hitFenceIndices(at: points[index])
                },
                try Agreement.compare(peer: .naiveSwift, core: core, fences: fences, fixes: fixes,
                                      fixIndices: 0..<naiveRow.fixes,
                                      marginMillimetres: margin) { (index: Int) -> [Int] in
                    _ = naive.query(fixes[index], marginMetres: Double(margin) / 1000)
                    return naive.hits.map(\.fenceIndex)
                },
            ]
            outcome.agreements += agreements.map { (coreRow.comparisonKey, $0) }
            let disagreements = agreements.map { agreement in
                "\(agreement.peer.rawValue) \(agreement.disagreeingFixes)/\(agreement.fixesCompared)"
                    + (agreement.unexplainedCount > 0 ? " (\(agreement.unexplainedCount) OUTSIDE the allowance)" : "")
            }
            console.progress("  \(label) \(workload.rawValue): ns/fix median (p99): "
                + rows.map { row in
                    "\(row.engine.rawValue) \(fixed(row.nanosecondsPerFixMedian, places: 1)) "
                        + "(\(fixed(row.nanosecondsPerFixP99, places: 1)))"
                        + (row.subsampled ? " over \(row.fixes) fixes" : "")
                }.joined(separator: ", ")
                + "; fixes disagreeing with core: " + disagreements.joined(separator: ", "))
        }
    }

    /// Times geos-strtree over the loaded stream, `plan.indexPeerRepetitions` times (drive: after the warm-up fixes).
    private func timeGEOS(
        _ geos: GEOSStrtreeEngine, fixCount: Int, workload: Workload, dataset: Dataset, fences: Int
    ) throws(PeerError) -> BenchmarkResult {
        var timings = BatchTimings(fixCount: fixCount, batchSize: plan.batchSize(fixes: fixCount),
                                   repetitions: plan.indexPeerRepetitions)
        if workload == .drive {
            _ = try geos.countHits(0..<min(plan.warmUpFixes, fixCount))
        }
        let hits = try timeInBatches(into: &timings) { (batch: Range<Int>) throws(PeerError) -> Int in
            try geos.countHits(batch)
        }
        return BenchmarkResult(
            engine: .geosStrtree, dataset: dataset.name, workload: workload, fences: fences, fixes: fixCount,
            nanosecondsPerFixMedian: timings.median, nanosecondsPerFixP99: timings.p99,
            bytesPerFence: geos.buildCost.bytesPerFence(fences),
            buildNanosecondsPerFence: geos.buildCost.nanosecondsPerFence(fences), hits: hits,
            tableMemoryPerFence: nil)
    }

    /// Times an index peer over the whole stream, `plan.indexPeerRepetitions` times (drive: after the warm-up fixes,
    /// as geos-strtree).
    private func timeIndexPeer(
        _ peer: any IndexPeer, points: [gf_point], workload: Workload, dataset: Dataset, fences: Int
    ) throws(PeerError) -> BenchmarkResult {
        var timings = BatchTimings(fixCount: points.count, batchSize: plan.batchSize(fixes: points.count),
                                   repetitions: plan.indexPeerRepetitions)
        if workload == .drive {
            _ = try peer.countHits(points, 0..<min(plan.warmUpFixes, points.count))
        }
        let hits = try timeInBatches(into: &timings) { (batch: Range<Int>) throws(PeerError) -> Int in
            try peer.countHits(points, batch)
        }
        return BenchmarkResult(
            engine: peer.engine, dataset: dataset.name, workload: workload, fences: fences, fixes: points.count,
            nanosecondsPerFixMedian: timings.median, nanosecondsPerFixP99: timings.p99,
            bytesPerFence: peer.buildCost.bytesPerFence(fences),
            buildNanosecondsPerFence: peer.buildCost.nanosecondsPerFence(fences), hits: hits,
            tableMemoryPerFence: nil)
    }

    /// Times c-scan once over its (shorter at large N) prefix of the stream.
    private func timeScan(
        _ scan: CScanEngine, points: [gf_point], workload: Workload, dataset: Dataset, fences: Int
    ) throws(PeerError) -> BenchmarkResult {
        var timings = BatchTimings(fixCount: points.count, batchSize: plan.batchSize(fixes: points.count),
                                   repetitions: 1)
        let hits = try timeInBatches(into: &timings) { (batch: Range<Int>) throws(PeerError) -> Int in
            try scan.countHits(points, batch)
        }
        return BenchmarkResult(
            engine: .cScan, dataset: dataset.name, workload: workload, fences: fences, fixes: points.count,
            subsampled: points.count < plan.fixesPerStream,
            nanosecondsPerFixMedian: timings.median, nanosecondsPerFixP99: timings.p99,
            bytesPerFence: scan.buildCost.bytesPerFence(fences),
            buildNanosecondsPerFence: scan.buildCost.nanosecondsPerFence(fences), hits: hits,
            tableMemoryPerFence: nil)
    }

    /// Times the core's query over the whole stream (gf_query_tracked on a drive, gf_query otherwise; see CoreEngine),
    /// `plan.coreRepetitions` times, and counts the allocations around the loop.
    private func timeCore(
        _ core: CoreEngine, fixes: [Position], workload: Workload, dataset: Dataset, fences: Int,
        outcome: inout Outcome
    ) throws(CoreError) -> BenchmarkResult {
        let margin = plan.marginMillimetres
        var timings = BatchTimings(fixCount: fixes.count, batchSize: plan.batchSize(fixes: fixes.count),
                                   repetitions: plan.coreRepetitions)
        let tracking = workload == .drive
        if tracking {
            _ = try core.countHits(fixes, 0..<min(plan.warmUpFixes, fixes.count), marginMillimetres: margin,
                                   tracking: true)
        }
        let allocationsBefore = AllocationCounter.count
        let hits = try timeInBatches(into: &timings) { (batch: Range<Int>) throws(CoreError) -> Int in
            try core.countHits(fixes, batch, marginMillimetres: margin, tracking: tracking)
        }
        let allocationsAfter = AllocationCounter.count

        var row = BenchmarkResult(
            engine: .core, dataset: dataset.name, workload: workload, fences: fences, fixes: fixes.count,
            nanosecondsPerFixMedian: timings.median, nanosecondsPerFixP99: timings.p99,
            bytesPerFence: core.buildCost.bytesPerFence(fences),
            buildNanosecondsPerFence: core.buildCost.nanosecondsPerFence(fences), hits: hits,
            tableMemoryPerFence: Double(core.tableMemoryBytes) / Double(fences))
        let allocations = allocationsAfter &- allocationsBefore
        row.allocationsPerFix = Double(allocations) / Double(max(fixes.count * plan.coreRepetitions, 1))
        outcome.allocationsByQueries.append((row.comparisonKey, allocations, fixes.count * plan.coreRepetitions))
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
            subsampled: fixes.count < plan.fixesPerStream,
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
            subsampled: fixes.count < plan.fixesPerStream,
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
