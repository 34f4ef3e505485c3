/// The machine-readable report: exactly one JSON object, {"results":[...]}, one result per line for diffing.
/// Written by hand (the shape is fixed and flat). Every row has engine, workload, fences, dataset, fixes, subsampled,
/// ns_per_fix_median, ns_per_fix_p99, bytes_per_fence, build_ns_per_fence and hits (over the row's fixes: the first
/// `fixes` of the stream when "subsampled" is true). Rows of engine "core" add "allocations_per_fix". Rows of engine
/// "monitor" add "allocations_per_fix_median" and, on the row whose stream gave the monitor its first fix (every
/// region determined, not in the timing), "first_fix_ns"; their "hits" are the region events over the first timed
/// pass. The polygon rows (PolygonReport.jsonRows) follow the circle rows in the same array, with the same keys.
enum JSONReport {
    static func render(_ results: [BenchmarkResult], polygonRows: [String] = []) -> String {
        let rows = results.map { result in
            "{" + commonFields(engine: result.engine.rawValue, workload: result.workload.rawValue,
                               fences: result.fences, dataset: result.dataset, fixes: result.fixes,
                               subsampled: result.subsampled, median: result.nanosecondsPerFixMedian,
                               p99: result.nanosecondsPerFixP99, bytesPerFence: result.bytesPerFence,
                               buildPerFence: result.buildNanosecondsPerFence, hits: result.hits)
                + monitorFields(result) + "}"
        }
        return "{\"results\":[\n" + (rows + polygonRows).joined(separator: ",\n") + "\n]}"
    }

    /// The keys every row has, in their order (no braces).
    static func commonFields(
        engine: String, workload: String, fences: Int, dataset: String, fixes: Int, subsampled: Bool, median: Double,
        p99: Double, bytesPerFence: Double, buildPerFence: Double, hits: Int
    ) -> String {
        "\"engine\":\"\(engine)\",\"workload\":\"\(workload)\",\"fences\":\(fences),\"dataset\":\"\(dataset)\","
            + "\"fixes\":\(fixes),\"subsampled\":\(subsampled),\"ns_per_fix_median\":\(number(median, places: 2)),"
            + "\"ns_per_fix_p99\":\(number(p99, places: 2)),\"bytes_per_fence\":\(number(bytesPerFence, places: 2)),"
            + "\"build_ns_per_fence\":\(number(buildPerFence, places: 2)),\"hits\":\(hits)"
    }

    private static func monitorFields(_ result: BenchmarkResult) -> String {
        if let allocations = result.allocationsPerFix {
            return ",\"allocations_per_fix\":\(number(allocations, places: 4))"
        }
        guard let monitor = result.monitor else { return "" }
        var fields = ",\"allocations_per_fix_median\":\(number(monitor.allocationsPerFixMedian, places: 4))"
        if let firstFix = monitor.firstFix {
            fields += ",\"first_fix_ns\":\(firstFix.nanoseconds)"
        }
        return fields
    }

    /// JSON has no NaN or infinity; an unmeasurable value is null rather than invalid JSON.
    static func number(_ value: Double, places: Int) -> String {
        value.isFinite ? fixed(value, places: places) : "null"
    }
}
