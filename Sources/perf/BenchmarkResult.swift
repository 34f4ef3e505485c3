/// The engines compared: ours (the C core's query, and the Swift façade's whole per-fix path on top of it) and the
/// peers a user would pick instead (GEOS's R-tree, boost.geometry's rtree bulk-loaded and built by inserts, S2's
/// S2CellIndex, a C loop, a Swift loop), in the order the report lists them.
enum EngineName: String, CaseIterable {
    case core
    case monitor
    case geosStrtree = "geos-strtree"
    case boostRstar = "boost-rstar"
    case boostQuadratic = "boost-quadratic"
    case s2CellIndex = "s2-cell-index"
    case cScan = "c-scan"
    case naiveSwift = "naive-swift"

    /// Every engine that is not ours: the "best peer" of the targets is the fastest of these on the same rows.
    static var peers: [EngineName] { allCases.filter { $0 != .core && $0 != .monitor } }
}

/// One row of the report: one engine on one fix stream over one fence set.
struct BenchmarkResult {
    let engine: EngineName
    let dataset: String
    let workload: Workload
    let fences: Int
    /// Fixes per pass: naive-swift and c-scan run fewer at large fence counts (see RunPlan).
    let fixes: Int
    /// Whether `fixes` is only the first part of the stream the core ran (the table marks such rows).
    var subsampled = false
    let nanosecondsPerFixMedian: Double
    let nanosecondsPerFixP99: Double
    /// Measured heap bytes kept by building the engine's fence storage, per fence.
    let bytesPerFence: Double
    let buildNanosecondsPerFence: Double
    /// Hits over one pass of this engine's fixes.
    let hits: Int
    /// The core's own count (gf_table_memory) per fence, shown beside the measured bytes; nil for the other engines.
    let tableMemoryPerFence: Double?
    /// The core's rows: allocator calls per fix over its timed loops (counted exactly; must be 0).
    var allocationsPerFix: Double? = nil
    /// What only the monitor's rows report.
    var monitor: MonitorFigures? = nil

    /// Identifies the comparison this row belongs to: the same fences and fix stream.
    var comparisonKey: String { "\(dataset)/\(workload.rawValue)/\(fences)" }
}

/// The monitor's figures beyond time and hits (whose `hits` are the region events over the first timed pass).
struct MonitorFigures {
    /// Allocator calls per fix: the median over the timed batches. Printed, not checked.
    let allocationsPerFixMedian: Double
    /// All allocator calls of the timed passes over all their fixes.
    let allocationsPerFixMean: Double
    /// The monitor's first fix (every region determined), on the row of the stream that gave it; nil on the others.
    let firstFix: MonitorBench.FirstFix?
    /// One further, untimed pass: allocator calls on fixes with and without events.
    let split: MonitorBench.AllocationSplit
}
