/// `perf --profile`: one drive through one generated dataset, by the core and by the monitor, each pass in a function
/// of its own that is never inlined, so that an instruction counter can be limited to it. Timing says how long a fix
/// takes on a noisy host; counting instructions says where its work goes, the same on every run. Valgrind 3.19
/// cannot read the DWARF 5 of a release build, so the README's commands build a copy with DWARF 4 first:
///
///     swift build -c release --product perf --scratch-path .build-profile \
///         -Xcc -gdwarf-4 -Xswiftc -g -Xswiftc -dwarf-version=4
///     valgrind --tool=callgrind --toggle-collect='*profiledCorePass*' --toggle-collect='*profiledMonitorPass*' \
///         .build-profile/release/perf --profile
///     callgrind_annotate --inclusive=yes callgrind.out.<pid> | grep profiled
///
/// The fences, the drive and the monitor's settings are the timed run's (`Suite`, `MonitorBench`): the same fixes
/// after the same warm-up, the core with its cursor, the monitor through `RegionMonitor.process`.
enum ProfiledPasses {
    /// The dataset and fence count profiled: the first generated dataset the options select (uniform unless
    /// `--datasets` says otherwise), at the first of `--fences` (10^5 unless given). Nil when the options select
    /// only the stops, which are read from a file rather than generated.
    static func choice(_ options: Options) -> (dataset: Dataset, fences: Int)? {
        let count = options.fenceCounts?.first ?? 100_000
        let generated = Dataset.generated(uniformCounts: [count], otherCounts: [count])
        guard let dataset = generated.first(where: { options.runs(dataset: $0.name) }) else { return nil }
        return (dataset, count)
    }

    /// Builds both engines, warms them with `RunPlan.warmUpFixes` fixes of the drive, then drives each through the
    /// whole stream once; prints what was run and the hits and events seen. Returns the exit status.
    static func run(_ options: Options, console: Console) -> Int32 {
        guard let (dataset, count) = choice(options) else {
            let names = Dataset.generatedNames.joined(separator: ", ")
            writeToStandardError("perf: --profile runs a generated dataset (\(names))\n")
            return 2
        }
        let plan = RunPlan.full(marginMillimetres: options.marginMillimetres)
        let fences = dataset.fences(count: count)
        let fixes = Workload.drive.fixes(count: plan.fixesPerStream, over: dataset.fixArea(.drive), fences: [],
                                         seedName: "\(dataset.name)/drive")
        let warmUp = fixes.prefix(plan.warmUpFixes)
        do {
            let core = try CoreEngine(fences: fences)
            _ = try core.countHits(Array(warmUp), warmUp.indices, marginMillimetres: plan.marginMillimetres,
                                   tracking: true)
            let hits = try profiledCorePass(core, fixes, marginMillimetres: plan.marginMillimetres)

            let monitor = try MonitorBench(fences: fences)
            monitor.secondsPerFix = MonitorBench.secondsPerFix(.drive)
            _ = monitor.processFirstFix(fixes[0])
            for fix in warmUp.dropFirst() { monitor.process(fix) }
            monitor.pause()
            let eventsBefore = monitor.eventsSoFar()
            profiledMonitorPass(monitor, fixes)
            let events = monitor.eventsSoFar() - eventsBefore
            console.report("profile: \(dataset.name) \(count) fences, drive of \(fixes.count) fixes after "
                + "\(warmUp.count) warm-up fixes: profiledCorePass \(hits) hits (gf_query_tracked, margin "
                + "\(plan.marginMillimetres) mm), profiledMonitorPass \(events) events (RegionMonitor.process)")
            return 0
        } catch {
            writeToStandardError("perf: the profile run failed: \(error)\n")
            return 1
        }
    }

    @inline(never)
    private static func profiledCorePass(
        _ core: CoreEngine, _ fixes: [Position], marginMillimetres: UInt32
    ) throws(CoreError) -> Int {
        try core.countHits(fixes, fixes.indices, marginMillimetres: marginMillimetres, tracking: true)
    }

    @inline(never)
    private static func profiledMonitorPass(_ monitor: MonitorBench, _ fixes: [Position]) {
        for fix in fixes { monitor.process(fix) }
    }
}
