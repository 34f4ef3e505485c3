/// The two engines compared.
enum EngineName: String {
    case core
    case naiveSwift = "naive-swift"
}

/// One row of the report: one engine on one fix stream over one fence set.
struct BenchmarkResult {
    let engine: EngineName
    let dataset: String
    let workload: Workload
    let fences: Int
    /// Fixes per pass: the naive engine runs fewer at large fence counts (see RunPlan).
    let fixes: Int
    let nanosecondsPerFixMedian: Double
    let nanosecondsPerFixP99: Double
    /// Measured heap bytes kept by building the engine's fence storage, per fence.
    let bytesPerFence: Double
    let buildNanosecondsPerFence: Double
    /// Hits over one pass of this engine's fixes.
    let hits: Int
    /// The core's own count (gf_table_memory) per fence, shown beside the measured bytes; nil for naive-swift.
    let tableMemoryPerFence: Double?

    /// Identifies the comparison this row belongs to: the same fences and fix stream.
    var comparisonKey: String { "\(dataset)/\(workload.rawValue)/\(fences)" }
}
