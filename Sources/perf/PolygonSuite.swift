import CGeofence

/// Runs the polygon rows: for each polygon or corridor dataset, the core, geos-prepared (polygons only) and
/// naive-swift on a drive and on random fixes, with the agreement and allocation checks.
///
/// GEOS is not run on the corridor: GEOS measures distance in the units of its coordinates, degrees here, so a
/// buffer or a distance test in degrees is a differently shaped corridor (an ellipse's worth of error: a degree of
/// longitude is cos(latitude) of a degree of latitude), and projecting first would be a third model. Neither would
/// answer the question the core and naive-swift answer (metres from the path).
struct PolygonSuite {
    let plan: PolygonPlan
    let console: Console

    struct Outcome {
        var results: [PolygonResult] = []
        var agreements: [(key: String, agreement: PolygonAgreement)] = []
        /// Allocator calls across the core's timed query loops (of `queries` queries): must all be 0.
        var allocationsByQueries: [(key: String, allocations: UInt64, queries: Int)] = []
    }

    func run(_ datasets: [PolygonDataset]) throws -> Outcome {
        var outcome = Outcome()
        for dataset in datasets {
            try measure(dataset, into: &outcome)
        }
        return outcome
    }

    private func measure(_ dataset: PolygonDataset, into outcome: inout Outcome) throws {
        let core = try PolygonCoreEngine(dataset.shapes)
        let geos: GEOSPreparedEngine?
        let naive: NaiveEngine
        let naiveCost: BuildCost
        let shapeNames: [String]
        let naivePerFixCost: Int
        let naiveBudget: Int
        let naiveAllowance: Int32
        switch dataset.shapes {
        case .polygons(let polygons):
            let arrays = PolygonArrays(polygons)
            geos = try GEOSPreparedEngine(arrays)
            (naive, naiveCost) = measureBuild { NaiveEngine.polygons(NaivePolygonEngine(arrays)) }
            shapeNames = polygons.map(\.name)
            (naivePerFixCost, naiveBudget) = (dataset.vertexCount, plan.naiveEdgeTestsPerStream)
            naiveAllowance = PolygonAgreement.polygonAllowanceMillimetres
        case .corridor(let corridor):
            geos = nil
            (naive, naiveCost) = measureBuild { NaiveEngine.corridor(NaiveCorridorEngine(corridor)) }
            shapeNames = ["corridor"]
            (naivePerFixCost, naiveBudget) = (dataset.vertexCount - 1, plan.naiveSegmentsPerStream)
            naiveAllowance = PolygonAgreement.corridorAllowanceMillimetres(corridor)
        }
        let vertices = dataset.vertexCount
        let fences = dataset.fenceCount
        func perVertex(_ cost: BuildCost) -> String {
            "\(fixed(Double(cost.nanoseconds) / Double(vertices), places: 0)) ns/vertex, "
                + "\(fixed(Double(cost.heapBytes) / Double(vertices), places: 1)) B/vertex"
        }
        console.progress("\(dataset.name): \(fences) shapes, \(vertices) vertices, fixes over "
            + "\(dataset.area.describe()); built: core \(perVertex(core.buildCost)) (gf_table_memory "
            + "\(fixed(Double(core.tableMemoryBytes) / Double(vertices), places: 1)) B/vertex)"
            + (geos.map { "; geos-prepared \(perVertex($0.buildCost))" } ?? "; geos-prepared not run (corridor)")
            + "; naive-swift \(perVertex(naiveCost))")

        for workload in [Workload.drive, .random] {
            let fixes = dataset.fixes(workload, count: plan.fixesPerStream)
            let points = fixes.map(\.point)
            let row = { (engine: PolygonEngineName, fixCount: Int, timings: BatchTimings, cost: BuildCost,
                         inside: Int) in
                PolygonResult(engine: engine, dataset: dataset.name, workload: workload, fences: fences,
                              vertices: vertices, fixes: fixCount, subsampled: fixCount < fixes.count,
                              nanosecondsPerFixMedian: timings.median, nanosecondsPerFixP99: timings.p99,
                              heapBytes: cost.heapBytes, buildNanoseconds: cost.nanoseconds, inside: inside)
            }

            var coreRow = try timeCore(core, points: points, tracking: workload == .drive, outcome: &outcome,
                                       key: "\(dataset.name)/\(workload.rawValue)") { timings, inside in
                row(.core, points.count, timings, core.buildCost, inside)
            }
            coreRow.tableMemoryBytes = core.tableMemoryBytes
            var rows = [coreRow]
            if workload == .drive {
                // The monitor on the drive only: random fixes kilometres apart are not what it is for (each would
                // be an interpolated pass or a fresh determination, see MonitorBench.secondsPerFix).
                let monitor = try PolygonMonitorEngine(dataset.shapes)
                var timings = BatchTimings(fixCount: points.count, batchSize: plan.batchSize(fixes: points.count),
                                           repetitions: 1)
                _ = monitor.process(fixes, 0..<min(plan.warmUpFixes, fixes.count))
                let inside = timeInBatches(into: &timings) { batch in monitor.process(fixes, batch) }
                rows.append(row(.monitor, points.count, timings, monitor.buildCost, inside))
            }
            var agreements: [PolygonAgreement] = []

            if let geos {
                var timings = BatchTimings(fixCount: points.count, batchSize: plan.batchSize(fixes: points.count),
                                           repetitions: 1)
                if workload == .drive { _ = try geos.countHits(points, 0..<min(plan.warmUpFixes, points.count)) }
                let inside = try timeInBatches(into: &timings) { (batch: Range<Int>) throws(PeerError) -> Int in
                    try geos.countHits(points, batch)
                }
                rows.append(row(.geosPrepared, points.count, timings, geos.buildCost, inside))
                agreements.append(try PolygonAgreement.compare(
                    peer: .geosPrepared, allowanceMillimetres: PolygonAgreement.polygonAllowanceMillimetres,
                    core: core, shapeNames: shapeNames, fixes: points, fixIndices: points.indices
                ) { (index: Int) throws(PeerError) -> [Int] in try geos.insideShapeIndices(at: points[index]) })
            }

            let naiveCount = plan.naiveFixes(perFixCost: naivePerFixCost, budget: naiveBudget)
            var naiveTimings = BatchTimings(fixCount: naiveCount, batchSize: plan.batchSize(fixes: naiveCount),
                                            repetitions: 1)
            let naiveInside = timeInBatches(into: &naiveTimings) { batch in
                batch.reduce(0) { $0 + naive.countInside(fixes[$1]) }
            }
            rows.append(row(.naiveSwift, naiveCount, naiveTimings, naiveCost, naiveInside))
            agreements.append(try PolygonAgreement.compare(
                peer: .naiveSwift, allowanceMillimetres: naiveAllowance, core: core, shapeNames: shapeNames,
                fixes: points, fixIndices: 0..<naiveCount
            ) { (index: Int) -> [Int] in naive.insideShapeIndices(at: fixes[index]) })

            outcome.results += rows
            outcome.agreements += agreements.map { (coreRow.comparisonKey, $0) }
            console.progress("  \(dataset.name) \(workload.rawValue): ns/fix median (p99), inside: "
                + rows.map { row in
                    "\(row.engine.rawValue) \(fixed(row.nanosecondsPerFixMedian, places: 1)) "
                        + "(\(fixed(row.nanosecondsPerFixP99, places: 1))), \(row.inside)"
                        + (row.subsampled ? " over \(row.fixes) fixes" : "")
                }.joined(separator: "; ")
                + "; fixes disagreeing with core: "
                + agreements.map { "\($0.peer.rawValue) \($0.disagreeingFixes)/\($0.fixesCompared)" }
                    .joined(separator: ", "))
        }
    }

    /// Times the core over the whole stream `plan.coreRepetitions` times (drive: gf_query_tracked after the warm-up
    /// fixes; otherwise gf_query), counting the allocator calls around the timed loop.
    private func timeCore(
        _ core: PolygonCoreEngine, points: [gf_point], tracking: Bool, outcome: inout Outcome, key: String,
        makeRow: (BatchTimings, Int) -> PolygonResult
    ) throws(CoreError) -> PolygonResult {
        var timings = BatchTimings(fixCount: points.count, batchSize: plan.batchSize(fixes: points.count),
                                   repetitions: plan.coreRepetitions)
        if tracking {
            _ = try core.countHits(points, 0..<min(plan.warmUpFixes, points.count), tracking: true)
        }
        let allocationsBefore = AllocationCounter.count
        let inside = try timeInBatches(into: &timings) { (batch: Range<Int>) throws(CoreError) -> Int in
            try core.countHits(points, batch, tracking: tracking)
        }
        let allocations = AllocationCounter.count &- allocationsBefore
        let queries = points.count * plan.coreRepetitions
        outcome.allocationsByQueries.append((key, allocations, queries))
        var row = makeRow(timings, inside)
        row.allocationsPerFix = Double(allocations) / Double(max(queries, 1))
        return row
    }
}

/// naive-swift on either kind of shape.
private enum NaiveEngine {
    case polygons(NaivePolygonEngine)
    case corridor(NaiveCorridorEngine)

    func countInside(_ fix: Position) -> Int {
        switch self {
        case .polygons(let engine): engine.countInside(fix)
        case .corridor(let engine): engine.countInside(fix)
        }
    }

    func insideShapeIndices(at fix: Position) -> [Int] {
        switch self {
        case .polygons(let engine): engine.insideShapeIndices(at: fix)
        case .corridor(let engine): engine.countInside(fix) == 1 ? [0] : []
        }
    }
}
