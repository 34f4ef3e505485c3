/// The monitor's lines under the table: how its rows were measured, its first fixes, its allocator calls, and
/// whether the monitor's target is met. Information only: none of it changes the exit status (CI never asserts on time,
/// and the Swift path may allocate for events; the core's zero is checked in Checks).
enum MonitorReport {
    /// The monitor's target: at most 1 µs median per fix at 10^5 regions on the drive workload.
    static let targetNanosecondsPerFix = 1000.0
    static let targetFences = 100_000

    static func lines(_ results: [BenchmarkResult], plan: RunPlan) -> [String] {
        let rows = results.filter { $0.engine == .monitor }
        guard !rows.isEmpty else { return [] }
        var lines = [
            "monitor: RegionMonitor.process(_:) with no delegate and no stream attached; a Region per fence, "
                + "fixes with horizontal accuracy 5 m, 1 s apart on the drive and 30 s apart on random (beyond the "
                + "10 s interpolation gap: 1 s would make every random pair a 500 km/s \"fast pass\"); "
                + "default MonitorConfiguration (hysteresis, no query margin"
                + (plan.marginMillimetres > 0 ? "; --margin-mm does not apply to it" : "") + ")",
            "monitor: its first fix ever (every region determined) is not in the timing, nor are "
                + "\(plan.warmUpFixes) warm-up fixes per stream; each timed pass "
                + "starts after a 30 s pause; hits = region events (enter, exit, dwell, determined) over the first "
                + "timed pass, counted by sequence number",
        ]
        let firstFixes = rows.compactMap { row in
            row.monitor?.firstFix.map { firstFix in
                let milliseconds = fixed(Double(firstFix.nanoseconds) / 1e6, places: 1)
                return "\(row.dataset) \(fenceCountLabel(row.fences)) \(milliseconds) ms (\(firstFix.events) events)"
            }
        }
        lines.append("monitor first fix: " + firstFixes.joined(separator: ", "))

        lines.append("allocations per fix on the monitor path (printed, not checked; allocs/fix in the table is the "
            + "median over the timed batches; an untimed extra pass splits the calls by fixes without and with "
            + "events):")
        for row in rows {
            guard let monitor = row.monitor else { continue }
            let split = monitor.split
            lines.append("  \(row.dataset) \(fenceCountLabel(row.fences)) \(row.workload.rawValue): median "
                + "\(fixed(monitor.allocationsPerFixMedian, places: 3)), mean "
                + "\(fixed(monitor.allocationsPerFixMean, places: 3)); \(split.allocationsWithoutEvents) calls on "
                + "\(split.fixesWithoutEvents) fixes without events, \(split.allocationsWithEvents) on "
                + "\(split.fixesWithEvents) fixes with events")
        }
        let fixesWithoutEvents = rows.reduce(0) { $0 + ($1.monitor?.split.fixesWithoutEvents ?? 0) }
        let callsWithoutEvents = rows.reduce(UInt64(0)) { $0 + ($1.monitor?.split.allocationsWithoutEvents ?? 0) }
        lines.append("  fixes without events: \(callsWithoutEvents) allocator calls over \(fixesWithoutEvents) fixes")

        let targetRow = rows.first { $0.dataset == "uniform" && $0.workload == .drive && $0.fences == targetFences }
        if let targetRow {
            let met = targetRow.nanosecondsPerFixMedian <= targetNanosecondsPerFix
            lines.append("target: monitor <= \(fixed(targetNanosecondsPerFix, places: 0)) ns median per fix "
                + "at \(fenceCountLabel(targetFences)) regions, uniform drive: "
                + "\(fixed(targetRow.nanosecondsPerFixMedian, places: 1)) ns, \(met ? "met" : "NOT met")"
                + " (information only: times are never checked)")
        }
        return lines
    }
}
