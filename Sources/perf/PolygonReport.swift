/// The polygon section of the report: its table, its JSON rows and its pass/fail lines.
enum PolygonReport {
    /// One row per engine, dataset and workload, in the order they ran, with each row's speed-up over geos-prepared
    /// and naive-swift on the same shapes and fixes.
    static func table(_ results: [PolygonResult]) -> [String] {
        func medians(of engine: PolygonEngineName) -> [String: Double] {
            Dictionary(results.filter { $0.engine == engine }.map { ($0.comparisonKey, $0.nanosecondsPerFixMedian) },
                       uniquingKeysWith: { first, _ in first })
        }
        let geosByKey = medians(of: .geosPrepared)
        let naiveByKey = medians(of: .naiveSwift)
        func speedUp(_ result: PolygonResult, over peer: PolygonEngineName, _ byKey: [String: Double]) -> String {
            guard result.engine != peer, let peerMedian = byKey[result.comparisonKey] else { return "-" }
            return fixed(peerMedian / result.nanosecondsPerFixMedian, places: 1) + "x"
        }
        let columns: [(title: String, alignRight: Bool, cell: (PolygonResult) -> String)] = [
            ("engine", false, { $0.engine.rawValue }),
            ("dataset", false, { $0.dataset }),
            ("workload", false, { $0.workload.rawValue }),
            ("polygons", true, { String($0.fences) }),
            ("vertices", true, { String($0.vertices) }),
            ("fixes", true, { String($0.fixes) + ($0.subsampled ? TableReport.subsampleMark : " ") }),
            ("ns/fix median", true, { fixed($0.nanosecondsPerFixMedian, places: 1) }),
            ("ns/fix p99", true, { fixed($0.nanosecondsPerFixP99, places: 1) }),
            ("bytes/vertex", true, { fixed($0.bytesPerVertex, places: 1) }),
            ("gf_table_memory/vertex", true, { result in
                result.tableMemoryBytes.map { fixed(Double($0) / Double(max(result.vertices, 1)), places: 1) } ?? "-"
            }),
            ("build ns/polygon", true, { fixed($0.buildNanosecondsPerFence, places: 0) }),
            ("build ns/vertex", true, { fixed($0.buildNanosecondsPerVertex, places: 1) }),
            ("inside", true, { String($0.inside) }),
            ("allocs/fix", true, { $0.allocationsPerFix.map { fixed($0, places: 3) } ?? "-" }),
            ("vs geos", true, { speedUp($0, over: .geosPrepared, geosByKey) }),
            ("vs naive", true, { speedUp($0, over: .naiveSwift, naiveByKey) }),
        ]
        return TableReport.grid(titles: columns.map(\.title), alignRight: columns.map(\.alignRight),
                                cells: results.map { result in columns.map { $0.cell(result) } })
    }

    /// The rows for JSONReport, with its keys ("fences" = polygons; "hits" = fixes inside, summed over the shapes)
    /// plus "vertices", "bytes_per_vertex" and "build_ns_per_vertex"; the core's rows add "allocations_per_fix".
    static func jsonRows(_ results: [PolygonResult]) -> [String] {
        results.map { result in
            let common = JSONReport.commonFields(
                engine: result.engine.rawValue, workload: result.workload.rawValue, fences: result.fences,
                dataset: result.dataset, fixes: result.fixes, subsampled: result.subsampled,
                median: result.nanosecondsPerFixMedian, p99: result.nanosecondsPerFixP99,
                bytesPerFence: result.bytesPerFence, buildPerFence: result.buildNanosecondsPerFence,
                hits: result.inside)
            var fields = common + ",\"vertices\":\(result.vertices)"
            fields += ",\"bytes_per_vertex\":\(JSONReport.number(result.bytesPerVertex, places: 2))"
            fields += ",\"build_ns_per_vertex\":\(JSONReport.number(result.buildNanosecondsPerVertex, places: 2))"
            if let allocations = result.allocationsPerFix {
                fields += ",\"allocations_per_fix\":\(JSONReport.number(allocations, places: 4))"
            }
            return "{" + fields + "}"
        }
    }

    /// The checks: no allocator call in the core's polygon query loops, and every difference with a peer within its
    /// allowance of the boundary (listed either way). `passed` is false if any fails.
    static func checks(_ outcome: PolygonSuite.Outcome) -> (lines: [String], passed: Bool) {
        var lines: [String] = []
        var passed = true
        for (key, allocations, queries) in outcome.allocationsByQueries where allocations != 0 {
            lines.append("FAIL \(key): the core's polygon query loop made \(allocations) allocator calls over "
                + "\(queries) fixes")
            passed = false
        }
        lines.append("polygons: allocations per fix on the core hot path: \(passed ? "0" : "NOT 0")")
        lines.append("polygons: inside agreement with core (margin 0; a difference is one shape only one side says the "
            + "fix is inside; allowed within 1 cm of the boundary by the core's signed distance, for the corridor's "
            + "naive-swift within 0.6 % of the half-width + 3 cm):")
        for peer in [PolygonEngineName.geosPrepared, .naiveSwift] {
            let agreements = outcome.agreements.filter { $0.agreement.peer == peer }
            let compared = agreements.reduce(0) { $0 + $1.agreement.fixesCompared }
            let disagreeing = agreements.reduce(0) { $0 + $1.agreement.disagreeingFixes }
            let within = agreements.reduce(0) { $0 + $1.agreement.differencesWithinAllowance }
            let outside = agreements.reduce(0) { $0 + $1.agreement.unexplainedCount }
            lines.append("  \(peer.rawValue): \(disagreeing) of \(compared) fixes disagree; \(within) differences "
                + "within the allowance, \(outside) outside")
            for (key, agreement) in agreements where agreement.differencesWithinAllowance > 0 {
                lines.append("    \(key): \(agreement.differencesWithinAllowance) within the allowance, e.g. "
                    + agreement.examplesWithinAllowance.map(\.description).joined(separator: "; "))
            }
            for (key, agreement) in agreements where agreement.unexplainedCount > 0 {
                passed = false
                lines.append("FAIL \(key) \(peer.rawValue): \(agreement.unexplainedCount) differences are OUTSIDE "
                    + "the allowance, e.g.:")
                lines += agreement.unexplainedExamples.map { "  \($0)" }
            }
        }
        return (lines, passed)
    }
}
