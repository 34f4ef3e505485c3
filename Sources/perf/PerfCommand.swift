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
        let plan = options.quick
            ? RunPlan.quick(marginMillimetres: options.marginMillimetres)
            : RunPlan.full(marginMillimetres: options.marginMillimetres)
        var notes: [String] = []
        var datasets = [Dataset.uniform(fenceCounts: plan.fenceCounts)]
        do {
            if let (stops, path) = try loadStops(options.stopsPath) {
                datasets += [stops]
                notes.append("seq-stops: \(stops.fenceCounts[0]) stops from \(path), each a 100 m fence")
            } else {
                notes.append("seq-stops skipped: \(options.stopsPath) does not exist")
            }
        } catch {
            writeToStandardError("perf: \(error)\n")
            return 1
        }

        let outcome: Suite.Outcome
        do {
            outcome = try Suite(plan: plan, console: console).run(datasets)
        } catch {
            writeToStandardError("perf: the run failed: \(error)\n")
            return 1
        }

        let checks = Checks(outcome)
        console.report("")
        TableReport.render(outcome.results).forEach(console.report)
        console.report("")
        console.report("fixes: per pass over the stream; naive-swift runs the first fixes of the core's stream, and "
            + "hits count the hits over an engine's own fixes (the monitor's: its events, see below)")
        (notes + MonitorReport.lines(outcome.results, plan: plan) + checks.lines).forEach(console.report)
        if options.json {
            print(JSONReport.render(outcome.results))
        }
        return checks.passed ? 0 : 1
    }

    /// The seq-stops dataset and the file it came from, nil when the file is absent; tries the path as given, then
    /// from the package root.
    private static func loadStops(_ path: String) throws(StopsFile.ReadError) -> (Dataset, String)? {
        let candidates = path.hasPrefix("/") ? [path] : [path, ReleaseBuild.packageRoot + "/" + path]
        for candidate in candidates {
            if let stops = try StopsFile.readPositions(path: candidate),
               let dataset = Dataset.stops(stops, named: "seq-stops") {
                return (dataset, candidate)
            }
        }
        return nil
    }
}
