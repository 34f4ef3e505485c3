/// The engines of the polygon rows, in the order the report lists them.
enum PolygonEngineName: String, CaseIterable {
    case core
    case monitor
    case geosPrepared = "geos-prepared"
    case naiveSwift = "naive-swift"
}

/// One row of the polygon section: one engine on one fix stream over one dataset's polygons (or its corridor).
struct PolygonResult {
    let engine: PolygonEngineName
    let dataset: String
    let workload: Workload
    /// Shapes in the dataset: polygons (each part of a MultiPolygon counts), or 1 for a corridor.
    let fences: Int
    /// Vertices of all of them (rings' closing vertices not counted).
    let vertices: Int
    /// Fixes per pass: naive-swift runs the first `fixes` of the stream at large vertex counts.
    let fixes: Int
    var subsampled = false
    let nanosecondsPerFixMedian: Double
    let nanosecondsPerFixP99: Double
    /// Measured heap bytes kept by building the engine's storage (see measureBuild), in total.
    let heapBytes: Int
    let buildNanoseconds: Int
    /// Fixes found inside a shape, summed over the shapes, over one pass of this engine's fixes.
    let inside: Int
    /// The core's own count (gf_table_memory), in total; nil for the peers.
    var tableMemoryBytes: Int? = nil
    /// The core's rows: allocator calls per fix over its timed loops (must be 0).
    var allocationsPerFix: Double? = nil

    var bytesPerFence: Double { Double(heapBytes) / Double(max(fences, 1)) }
    var bytesPerVertex: Double { Double(heapBytes) / Double(max(vertices, 1)) }
    var buildNanosecondsPerFence: Double { Double(buildNanoseconds) / Double(max(fences, 1)) }
    var buildNanosecondsPerVertex: Double { Double(buildNanoseconds) / Double(max(vertices, 1)) }

    /// Identifies the comparison this row belongs to: the same shapes and fix stream.
    var comparisonKey: String { "\(dataset)/\(workload.rawValue)" }
}

/// How much the polygon rows measure: the full run for numbers worth quoting, the quick run as a smoke test (a few
/// seconds of the quick run's minute).
struct PolygonPlan {
    /// Fixes per stream; the core and geos-prepared run all of them.
    let fixesPerStream: Int
    let coreRepetitions: Int
    /// naive-swift costs fixes x vertices edge tests, so it gets a budget of those per stream (at least 64 fixes).
    let naiveEdgeTestsPerStream: Int
    /// The corridor's naive-swift does a haversine per segment (about 30x an edge test): its own budget.
    let naiveSegmentsPerStream: Int
    /// Drive fixes queried untimed before timing (as the circle rows do).
    let warmUpFixes = 1024

    static let full = PolygonPlan(fixesPerStream: 1 << 16, coreRepetitions: 5, naiveEdgeTestsPerStream: 400_000_000,
                                  naiveSegmentsPerStream: 20_000_000)
    static let quick = PolygonPlan(fixesPerStream: 1 << 12, coreRepetitions: 3, naiveEdgeTestsPerStream: 20_000_000,
                                   naiveSegmentsPerStream: 1_000_000)

    func naiveFixes(perFixCost: Int, budget: Int) -> Int {
        min(fixesPerStream, max(64, budget / max(perFixCost, 1)))
    }

    /// As RunPlan.batchSize: 256 fixes per batch, fewer when the fixes are few (about 64 batches or more).
    func batchSize(fixes: Int) -> Int {
        min(256, max(1, fixes / 64))
    }
}
