/// The core's performance targets, each judged on the uniform dataset's medians of this run and printed as met or NOT met.
/// Information only: times never change the exit status (CI never asserts on time).
enum TargetsReport {
    private struct Target {
        let text: String
        /// The measured figure as text and whether it meets the target; nil when the run has no such rows.
        let judge: ([BenchmarkResult]) -> (figure: String, met: Bool)?
    }

    private static let dataset = "uniform"

    private static func median(_ results: [BenchmarkResult], _ engine: EngineName, _ workload: Workload,
                               _ fences: Int) -> Double? {
        results.first { row in
            row.engine == engine && row.dataset == dataset && row.workload == workload && row.fences == fences
        }?.nanosecondsPerFixMedian
    }

    private static func atMost(_ engine: EngineName, _ workload: Workload, _ fences: Int, nanoseconds: Double)
        -> Target
    {
        Target(text: "\(engine.rawValue) \(workload.rawValue) at \(fenceCountLabel(fences)) <= "
            + "\(fixed(nanoseconds, places: 0)) ns") { results in
            median(results, engine, workload, fences).map { ("\(fixed($0, places: 1)) ns", $0 <= nanoseconds) }
        }
    }

    private static func fasterThan(_ peer: EngineName, by factor: Double, _ workload: Workload, _ fences: Int)
        -> Target
    {
        Target(text: "core >= \(fixed(factor, places: 0))x faster than \(peer.rawValue), \(workload.rawValue) at "
            + fenceCountLabel(fences)) { results in
            guard let core = median(results, .core, workload, fences),
                  let other = median(results, peer, workload, fences) else { return nil }
            return ("\(fixed(other / core, places: 1))x", other / core >= factor)
        }
    }

    private static var targets: [Target] {[
        atMost(.core, .drive, 100_000, nanoseconds: 50),
        atMost(.monitor, .drive, 100_000, nanoseconds: 1_000),
        atMost(.core, .random, 100_000, nanoseconds: 600),
        fasterThan(.geosStrtree, by: 5, .drive, 100_000),
        fasterThan(.geosStrtree, by: 5, .random, 100_000),
        fasterThan(.geosStrtree, by: 5, .drive, 1_000_000),
        fasterThan(.geosStrtree, by: 5, .random, 1_000_000),
        fasterThan(.naiveSwift, by: 1000, .drive, 100_000),
        fasterThan(.naiveSwift, by: 1000, .random, 100_000),
    ]}

    static func lines(_ results: [BenchmarkResult]) -> [String] {
        var lines = ["targets (\(dataset) dataset, medians of this run; information only):"]
        for target in targets {
            guard let (figure, met) = target.judge(results) else {
                lines.append("  \(target.text): not measured in this run")
                continue
            }
            lines.append("  \(target.text): \(figure), \(met ? "met" : "NOT met")")
        }
        lines += memoryLines(results)
        return lines
    }

    /// "<= 32 bytes per fence plus index overhead": the core's measured heap bytes per fence (records and index
    /// together: the public API does not split them), beside c-scan's 20 bytes of plain per-fence arrays, the
    /// no-index reference, and geos-strtree's.
    private static func memoryLines(_ results: [BenchmarkResult]) -> [String] {
        let cores = results.filter { $0.engine == .core && $0.workload == .drive }
        guard !cores.isEmpty else { return [] }
        var lines = ["  memory, core (records + index, measured heap; gf_table_memory in brackets) vs geos-strtree "
            + "vs c-scan (no index), bytes per fence:"]
        for core in cores {
            let peers = results.filter { $0.comparisonKey == core.comparisonKey }
            let geos = peers.first { $0.engine == .geosStrtree }.map { fixed($0.bytesPerFence, places: 1) } ?? "-"
            let scan = peers.first { $0.engine == .cScan }.map { fixed($0.bytesPerFence, places: 1) } ?? "-"
            lines.append("    \(core.dataset) \(fenceCountLabel(core.fences)): core "
                + "\(fixed(core.bytesPerFence, places: 1)) "
                + "(\(core.tableMemoryPerFence.map { fixed($0, places: 1) } ?? "-")), geos-strtree \(geos), "
                + "c-scan \(scan)")
        }
        return lines
    }
}
