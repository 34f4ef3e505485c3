import CPerfPeers

/// The polygon half of `swift run perf`: loads the datasets (the real outlines when ../shared is there), runs
/// PolygonSuite and turns its outcome into report lines, JSON rows and a verdict, for PerfCommand to print.
enum PolygonSection {
    struct Report {
        /// The table, the notes and the check lines, for the human report.
        let lines: [String]
        let jsonRows: [String]
        let passed: Bool
    }

    /// The real outline files, in report order: (file name, dataset name).
    private static let files = [("australia.geojson", "australia-states"),
                                ("the-netherlands.geojson", "dutch-provinces")]

    static func run(folder: String, quick: Bool, console: Console) throws -> Report {
        var notes: [String] = []
        var datasets: [PolygonDataset] = []
        for (file, name) in files {
            let candidates = folder.hasPrefix("/")
                ? [folder + "/" + file] : [folder + "/" + file, ReleaseBuild.packageRoot + "/" + folder + "/" + file]
            var found = false
            for path in candidates where !found {
                if let dataset = try PolygonDataset.file(path, named: name) {
                    datasets.append(dataset)
                    notes.append("\(name): \(dataset.fenceCount) polygons (one per part of each feature's "
                        + "MultiPolygon), \(dataset.vertexCount) vertices, from \(path)")
                    found = true
                }
            }
            if !found { notes.append("\(name) skipped: \(candidates[0]) does not exist") }
        }
        datasets += [PolygonDataset.syntheticStar(), PolygonDataset.syntheticCorridor()]
        let plan = quick ? PolygonPlan.quick : PolygonPlan.full
        let outcome = try PolygonSuite(plan: plan, console: console).run(datasets)
        let checks = PolygonReport.checks(outcome)
        let lines = ["polygons:"] + PolygonReport.table(outcome.results) + [""] + notes + [
            "polygons: margin 0 (a hit = the fix is inside); inside = fixes inside a shape, summed over the shapes; "
                + "core: gf_query_tracked with one cursor on drives, gf_query on random fixes; drive = the circle "
                + "rows' vehicle bouncing inside the shapes' box, for corridor-10k a vehicle along the route with a "
                + "lateral offset of sd 40 m (half-width 50 m)",
            "geos-prepared: GEOS \(String(cString: pp_geos_version())) GEOSPrepare_r per polygon (point locator "
                + "built before timing), STRtree (node capacity 10) of their envelopes, GEOSPreparedContains_r per "
                + "candidate; the fix's point geometry is made and freed inside the timed loop (GEOS 3.11 has no "
                + "GEOSPreparedContainsXY_r); not run on the corridor (GEOS distances are in degrees, another shape)",
            "naive-swift: even-odd ray cast over every edge of every polygon in Double degrees, no bounding box; for "
                + "the corridor the nearest point of every segment and its haversine distance; it runs the first "
                + "\(plan.naiveEdgeTestsPerStream) edge tests' (corridor: \(plan.naiveSegmentsPerStream) segments') "
                + "worth of fixes of each stream",
        ] + checks.lines
        return Report(lines: lines, jsonRows: PolygonReport.jsonRows(outcome.results), passed: checks.passed)
    }
}
