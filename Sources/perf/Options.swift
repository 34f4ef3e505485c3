import CGeofence

/// The command line of `swift run perf`.
struct Options {
    var json = false
    var quick = false
    var marginMillimetres: UInt32 = 0
    /// The GTFS stops file of the seq-stops dataset; relative paths are tried from the working directory, then from
    /// the package root (so `swift run perf` works from anywhere inside the checkout).
    var stopsPath = "../shared/data/pois/seq-stops.txt"
    /// Where the log-log plot (SVG) goes, relative to the working directory.
    var plotPath = "perf-plot.svg"
    /// The folder of australia.geojson and the-netherlands.geojson, resolved like `stopsPath`.
    var polygonsPath = "../shared/data/polygons"
    /// Which sections run: nil for both.
    var only: Section?
    /// Which circle datasets run (by their report names, `Dataset.names`): nil for all of them.
    var datasets: Set<String>?
    /// The fence counts of the generated circle datasets (all but seq-stops, whose count is its file's): nil for the
    /// plan's.
    var fenceCounts: [Int]?
    /// `--profile`: instead of the run, one drive through the core and the monitor for an instruction counter
    /// (`ProfiledPasses`).
    var profile = false

    /// The two halves of the run: circular fences, and polygon and corridor fences.
    enum Section: String {
        case circles
        case polygons
    }

    static let usage = """
        usage: swift run perf [--quick] [--json] [--margin-mm MM] [--stops PATH] [--plot PATH]
                             [--polygons DIR] [--only circles|polygons] [--datasets NAMES] [--fences COUNTS]
                             [--profile]

        Compares the core (gf_query_tracked with one cursor on drives, gf_query on other fixes) and monitor
        (RegionMonitor.process: the core's queries plus region states and events, no delegate or stream) with six
        peers on the same fences and fixes: geos-strtree (GEOS's STRtree through its C API), boost-rstar and
        boost-quadratic (boost.geometry's rtree, bulk-loaded R*-tree and a quadratic one built by inserts),
        s2-cell-index (S2's S2CellIndex over cap coverings of at most 8 cells), c-scan (a C loop over every fence,
        box reject then the core's exact test) and naive-swift (a haversine loop over every fence); every peer but
        naive-swift runs the core's exact test after its prefilter.
        Fences: uniform, clustered around 50 cities and mixed radii 10 m .. 50 km at 10^3..10^6, and the real SEQ
        stops; fixes: a drive (10-30 m apart, warm cache), uniform random (cold cache) and boundary probes
        (r +- 0.5 m, r (1 +- 1e-4) from a fence's centre).
        Polygons: the Australian states and Dutch provinces (one polygon per part), a 10^5-vertex star and a 200 km
        corridor (10^4 vertices, half-width 50 m); the core against geos-prepared (GEOS prepared polygons in an STRtree)
        and naive-swift (an even-odd ray cast over every edge; for the corridor a haversine to every segment), on a
        drive and random fixes, margin 0.

          --quick         a smoke test that finishes in under a minute (fewer fixes; clustered and mixed-radii stop
                          at 10^5, s2-cell-index at 10^4; naive-swift and c-scan run fewer fixes at large N)
          --json          print exactly one JSON object on stdout; everything else goes to stderr
          --margin-mm MM  the query margin in millimetres for both engines (default 0)
          --stops PATH    the GTFS stops.txt of the seq-stops dataset (default \(Options().stopsPath));
                          the dataset is skipped with a note when the file does not exist
          --plot PATH     where to write the log-log plot of ns/fix against fences (SVG; default perf-plot.svg)
          --polygons DIR  the folder of australia.geojson and the-netherlands.geojson (default
                          \(Options().polygonsPath)); their rows are skipped with a note when a file does not exist
          --only SECTION  run only the circle rows (circles) or only the polygon and corridor rows (polygons)
          --datasets NAMES  run only these circle datasets, comma-separated: \(Dataset.names.joined(separator: ", "))
          --fences COUNTS   the fence counts of the generated circle datasets, comma-separated (e.g. 100000,1000000;
                          each 1..\(GF_CAPACITY_MAX)); the restart measurement runs with the uniform dataset only
          --profile       no timing: the drive once through the core and once through the monitor, each pass in a
                          function of its own (profiledCorePass, profiledMonitorPass) for an instruction counter
                          (callgrind's --toggle-collect; the README builds a copy valgrind can read); the first dataset
                          of --datasets that is generated (default uniform), at the first of --fences (default 10^5)
          --help          this text

        A debug build rebuilds itself in release and runs that instead: numbers are never reported from debug code.
        Exit status: 0 all checks passed, 1 a check failed or the run could not be done, 2 bad usage.
        """

    /// Whether the circle dataset of this report name runs.
    func runs(dataset name: String) -> Bool {
        datasets?.contains(name) ?? true
    }

    enum Parsed {
        case run(Options)
        case help
        case invalid(String)
    }

    static func parse(_ arguments: ArraySlice<String>) -> Parsed {
        var options = Options()
        var remaining = arguments.makeIterator()
        while let argument = remaining.next() {
            switch argument {
            case "--json":
                options.json = true
            case "--quick":
                options.quick = true
            case "--margin-mm":
                guard let value = remaining.next(), let margin = UInt32(value), margin <= GF_MARGIN_MAX_MM else {
                    return .invalid("--margin-mm needs a whole number of millimetres, at most \(GF_MARGIN_MAX_MM)")
                }
                options.marginMillimetres = margin
            case "--stops":
                guard let path = remaining.next() else { return .invalid("--stops needs a path") }
                options.stopsPath = path
            case "--plot":
                guard let path = remaining.next(), !path.isEmpty else { return .invalid("--plot needs a path") }
                options.plotPath = path
            case "--polygons":
                guard let path = remaining.next(), !path.isEmpty else { return .invalid("--polygons needs a folder") }
                options.polygonsPath = path
            case "--only":
                guard let value = remaining.next(), let section = Section(rawValue: value) else {
                    return .invalid("--only needs 'circles' or 'polygons'")
                }
                options.only = section
            case "--datasets":
                let names = remaining.next()?.split(separator: ",").map(String.init) ?? []
                guard !names.isEmpty, names.allSatisfy(Dataset.names.contains) else {
                    return .invalid("--datasets needs names among \(Dataset.names.joined(separator: ", ")), "
                        + "comma-separated")
                }
                options.datasets = Set(names)
            case "--fences":
                let words = remaining.next()?.split(separator: ",") ?? []
                let counts = words.compactMap { Int($0) }.filter { (1...Int(GF_CAPACITY_MAX)).contains($0) }
                guard !words.isEmpty, counts.count == words.count else {
                    return .invalid("--fences needs fence counts from 1 to \(GF_CAPACITY_MAX), comma-separated")
                }
                options.fenceCounts = counts
            case "--profile":
                options.profile = true
            case "--help", "-h":
                return .help
            default:
                return .invalid("unknown argument '\(argument)'")
            }
        }
        return .run(options)
    }
}
