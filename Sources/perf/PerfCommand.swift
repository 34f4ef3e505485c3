import CPerfCxxPeers
import CPerfPeers
import Glibc

/// `swift run perf`: parses the command line, makes sure the code measured is optimised, runs the suite, prints the
/// report and turns the checks into the exit status. Process exit happens here and nowhere else.
@main
enum PerfCommand {
    static func main() {
        exit(run(CommandLine.arguments))
    }

    private static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        switch Options.parse(arguments.dropFirst()) {
        case .run(let parsed):
            options = parsed
        case .help:
            writeToStandardError(Options.usage + "\n")
            return 2
        case .invalid(let problem):
            writeToStandardError("perf: \(problem)\n\n" + Options.usage + "\n")
            return 2
        }

        if let reason = ReleaseBuild.replaceDebugProcess(arguments: arguments) {
            writeToStandardError("perf: refusing to report numbers from a debug build: \(reason)\n")
            return 1
        }
        do {
            try AllocationCounter.selfTest()
            try HeapUsage.selfTest()
        } catch {
            writeToStandardError("perf: \(error)\n")
            return 1
        }

        let console = Console(reportToStandardOutput: !options.json)
        if options.profile { return ProfiledPasses.run(options, console: console) }
        var circleResults: [BenchmarkResult] = []
        var passed = true
        if options.only != .polygons {
            guard let circles = runCircles(options, console: console) else { return 1 }
            (circleResults, passed) = (circles.results, circles.passed)
        }
        var polygonRows: [String] = []
        if options.only != .circles {
            do {
                let polygons = try PolygonSection.run(folder: options.polygonsPath, quick: options.quick,
                                                      console: console)
                console.report("")
                polygons.lines.forEach(console.report)
                polygonRows = polygons.jsonRows
                passed = passed && polygons.passed
            } catch {
                writeToStandardError("perf: the polygon run failed: \(error)\n")
                return 1
            }
        }
        if options.json {
            print(JSONReport.render(circleResults, polygonRows: polygonRows))
        }
        return passed ? 0 : 1
    }

    /// The circle rows: runs the suite, prints their table, notes and checks and writes the plot. Returns the rows
    /// and whether the checks passed; nil when the run could not be done (the reason is on stderr).
    private static func runCircles(
        _ options: Options, console: Console
    ) -> (results: [BenchmarkResult], passed: Bool)? {
        let plan = options.quick
            ? RunPlan.quick(marginMillimetres: options.marginMillimetres)
            : RunPlan.full(marginMillimetres: options.marginMillimetres)
        var notes: [String] = []
        var datasets = Dataset.generated(
            uniformCounts: options.fenceCounts ?? plan.fenceCounts,
            otherCounts: options.fenceCounts ?? plan.extraDatasetFenceCounts
        ).filter { options.runs(dataset: $0.name) }
        do {
            if options.runs(dataset: Dataset.stopsName) {
                if let (stops, path) = try loadStops(options.stopsPath) {
                    datasets += [stops]
                    notes.append("seq-stops: \(stops.fenceCounts[0]) stops from \(path), each a 100 m fence")
                } else {
                    notes.append("seq-stops skipped: \(options.stopsPath) does not exist")
                }
            }
        } catch {
            writeToStandardError("perf: \(error)\n")
            return nil
        }

        let outcome: Suite.Outcome
        do {
            outcome = try Suite(plan: plan, console: console).run(datasets)
        } catch {
            writeToStandardError("perf: the run failed: \(error)\n")
            return nil
        }

        let checks = Checks(outcome)
        console.report("")
        TableReport.render(outcome.results).forEach(console.report)
        console.report("")
        console.report("fixes: per pass over the stream; \(TableReport.subsampleMark) = the engine ran only the first "
            + "fixes of the core's stream (naive-swift and c-scan at large N; their figures are per fix all the same); "
            + "hits count the hits over an engine's own fixes (the monitor's: its events, see below)")
        console.report("geos-strtree: GEOS \(geosVersion()) STRtree (node capacity 10), one box per fence in degrees; "
            + "the point geometry of each fix is made before timing (not timed); it runs the whole stream "
            + "\(plan.indexPeerRepetitions)x, its agreement check the first \(plan.indexPeerAgreementFixes) fixes, as "
            + "the other index peers'. c-scan, geos-strtree, boost-rstar, boost-quadratic and s2-cell-index run the "
            + "core's own exact test (gf_distance) after their prefilter")
        console.report("boost-rstar / boost-quadratic: boost \(BoostRtreeEngine.boostVersion) geometry::index::rtree of "
            + "int32 boxes (1e-7 degree, the geos-strtree boxes), rstar<16> bulk-loaded / quadratic<16> built by one "
            + "insert per fence; s2-cell-index: S2 (Debian libs2) S2CellIndex over S2RegionCoverer coverings of each "
            + "fence's cap by at most \(PP_S2_MAX_CELLS_PER_FENCE) cells, a fix sought as its leaf cell"
            + (plan.s2MaxFences < .max ? "; up to \(fenceCountLabel(plan.s2MaxFences)) fences in this run" : ""))
        console.report("monitor: runs the first \(plan.monitorFixes) fixes of each stream at most, fewer where the "
            + "core finds many hits per fix (a budget of \(plan.monitorHitsPerStream) core hits per stream), up to "
            + "\(fenceCountLabel(plan.monitorMaxFences)) fences")
        console.report("datasets: clustered = 50 cities, Zipf-weighted, Gaussian spread 3-20 km, its drive in the "
            + "biggest city; mixed-radii = radii log-uniform 10 m .. 50 km; uniform and clustered 20 m .. 2 km")
        let restore = options.runs(dataset: "uniform") ? MonitorRestore.lines(quick: options.quick) : []
        (notes + MonitorReport.lines(outcome.results, plan: plan) + restore
            + TargetsReport.lines(outcome.results)
            + checks.lines).forEach(console.report)
        if let problem = LogLogPlot.write(outcome.results, to: options.plotPath) {
            writeToStandardError("perf: the plot was not written: \(problem)\n")
        } else {
            console.report("plot: \(options.plotPath) (ns/fix against fences, log-log, per workload and dataset)")
        }
        return (outcome.results, checks.passed)
    }

    private static func geosVersion() -> String {
        String(cString: pp_geos_version())
    }

    /// The seq-stops dataset and the file it came from, nil when the file is absent; tries the path as given, then
    /// from the package root.
    private static func loadStops(_ path: String) throws(StopsFile.ReadError) -> (Dataset, String)? {
        let candidates = path.hasPrefix("/") ? [path] : [path, ReleaseBuild.packageRoot + "/" + path]
        for candidate in candidates {
            if let stops = try StopsFile.readPositions(path: candidate),
               let dataset = Dataset.stops(stops, named: Dataset.stopsName) {
                return (dataset, candidate)
            }
        }
        return nil
    }
}
