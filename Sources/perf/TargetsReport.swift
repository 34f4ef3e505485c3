/// The core's performance targets, each judged on the uniform dataset's medians of this run and printed as met or NOT met.
/// Information only: times never change the exit status (CI never asserts on time).
enum TargetsReport {
    private struct Target {
        let text: String
        /// The measured figure as text and whether it meets the target; nil when the run has no such rows.
        let judge: ([BenchmarkResult]) -> (figure: String, met: Bool)?
    }

    private static let dataset = "uniform"

    private static func row(_ results: [BenchmarkResult], _ engine: EngineName, _ workload: Workload,
                            _ fences: Int) -> BenchmarkResult? {
        results.first { row in
            row.engine == engine && row.dataset == dataset && row.workload == workload && row.fences == fences
        }
    }

    private static func median(_ results: [BenchmarkResult], _ engine: EngineName, _ workload: Workload,
                               _ fences: Int) -> Double? {
        row(results, engine, workload, fences)?.nanosecondsPerFixMedian
    }

    /// "5" for 5, "1.5" for 1.5.
    private static func factorText(_ factor: Double) -> String {
        fixed(factor, places: factor == factor.rounded() ? 0 : 1)
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
        Target(text: "core >= \(factorText(factor))x faster than \(peer.rawValue), \(workload.rawValue) at "
            + fenceCountLabel(fences)) { results in
            guard let core = median(results, .core, workload, fences),
                  let other = median(results, peer, workload, fences) else { return nil }
            return ("\(fixed(other / core, places: 1))x", other / core >= factor)
        }
    }

    /// The core against the fastest of every peer (EngineName.peers) on the same rows; a factor of 1 reads "ahead of
    /// every peer".
    private static func fasterThanBestPeer(by factor: Double, _ workload: Workload, _ fences: Int) -> Target {
        let claim = factor == 1 ? "core ahead of every peer" : "core >= \(factorText(factor))x faster than the best peer"
        return Target(text: "\(claim), \(workload.rawValue) at \(fenceCountLabel(fences))") { results in
            guard let core = median(results, .core, workload, fences) else { return nil }
            let peers = EngineName.peers.compactMap { peer in median(results, peer, workload, fences).map { (peer, $0) } }
            guard let (best, other) = peers.min(by: { $0.1 < $1.1 }) else { return nil }
            return ("\(fixed(other / core, places: 1))x (best peer \(best.rawValue), \(fixed(other, places: 1)) ns)",
                    other / core >= factor)
        }
    }

    /// The monitor's drive fix against the core's query on the same fences and fixes.
    private static func monitorWithinCore(factor: Double, _ fences: Int) -> Target {
        Target(text: "monitor drive fix <= \(factorText(factor))x core's, at \(fenceCountLabel(fences))") { results in
            guard let monitor = median(results, .monitor, .drive, fences),
                  let core = median(results, .core, .drive, fences) else { return nil }
            return ("\(fixed(monitor / core, places: 1))x", monitor / core <= factor)
        }
    }

    /// Measured heap bytes per fence (per region for the monitor) of an engine's build, on the drive row.
    private static func atMostBytes(_ engine: EngineName, _ fences: Int, bytes: Double) -> Target {
        let unit = engine == .monitor ? "B/region" : "B/fence"
        return Target(text: "\(engine.rawValue) <= \(fixed(bytes, places: 0)) \(unit) at \(fenceCountLabel(fences))") {
            results in
            row(results, engine, .drive, fences).map { ("\(fixed($0.bytesPerFence, places: 1)) \(unit)",
                                                        $0.bytesPerFence <= bytes) }
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
        // Against every peer, GEOS and the stronger indexes (boost.geometry's rtree, S2CellIndex) alike.
        fasterThanBestPeer(by: 2.5, .random, 100_000),
        fasterThan(.geosStrtree, by: 1.5, .random, 1_000_000),
        fasterThanBestPeer(by: 1, .random, 1_000_000),
        fasterThanBestPeer(by: 3, .drive, 100_000),
        fasterThanBestPeer(by: 3, .drive, 1_000_000),
        fasterThan(.geosStrtree, by: 1.5, .boundary, 100_000),
        atMostBytes(.core, 100_000, bytes: 64),
        atMostBytes(.core, 1_000_000, bytes: 64),
        monitorWithinCore(factor: 4, 100_000),
        atMostBytes(.monitor, 100_000, bytes: 160),
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
    /// no-index reference, and every index peer's.
    private static func memoryLines(_ results: [BenchmarkResult]) -> [String] {
        let cores = results.filter { $0.engine == .core && $0.workload == .drive }
        guard !cores.isEmpty else { return [] }
        var lines = ["  memory, core (records + index, measured heap; gf_table_memory in brackets) vs the index peers "
            + "vs c-scan (no index), bytes per fence:"]
        let others: [EngineName] = [.geosStrtree, .boostRstar, .boostQuadratic, .s2CellIndex, .cScan]
        for core in cores {
            let peers = results.filter { $0.comparisonKey == core.comparisonKey }
            let peerTexts = others.map { engine in
                engine.rawValue + " "
                    + (peers.first { $0.engine == engine }.map { fixed($0.bytesPerFence, places: 1) } ?? "-")
            }
            lines.append("    \(core.dataset) \(fenceCountLabel(core.fences)): core "
                + "\(fixed(core.bytesPerFence, places: 1)) "
                + "(\(core.tableMemoryPerFence.map { fixed($0, places: 1) } ?? "-")), "
                + peerTexts.joined(separator: ", "))
        }
        return lines
    }
}
