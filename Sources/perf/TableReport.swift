/// The table for people: one row per engine, dataset, workload and fence count, grouped by dataset, workload and
/// fence count, with each row's speed-up over geos-strtree, over the fastest peer and over naive-swift on the same
/// fences and fix stream.
enum TableReport {
    private struct Column {
        let title: String
        let alignRight: Bool
        let cell: (BenchmarkResult) -> String
    }

    /// Marks a fix count that is only the first part of the stream.
    static let subsampleMark = "*"

    static func render(_ results: [BenchmarkResult]) -> [String] {
        func medians(of engine: EngineName) -> [String: Double] {
            Dictionary(results.filter { $0.engine == engine }.map { ($0.comparisonKey, $0.nanosecondsPerFixMedian) },
                       uniquingKeysWith: { first, _ in first })
        }
        let naiveMedianByKey = medians(of: .naiveSwift)
        let geosMedianByKey = medians(of: .geosStrtree)
        func speedUp(_ result: BenchmarkResult, over peer: EngineName, _ byKey: [String: Double]) -> String {
            guard result.engine != peer, let peerMedian = byKey[result.comparisonKey] else { return "-" }
            return fixed(peerMedian / result.nanosecondsPerFixMedian, places: 1) + "x"
        }
        let bestPeerByKey = bestPeerMedians(results)
        // Only for our rows: a peer's speed-up over the best peer says nothing more than the table does.
        func speedUpOverBestPeer(_ result: BenchmarkResult) -> String {
            guard result.engine == .core || result.engine == .monitor,
                  let best = bestPeerByKey[result.comparisonKey] else { return "-" }
            return fixed(best.median / result.nanosecondsPerFixMedian, places: 1) + "x " + best.engine.rawValue
        }

        let columns: [Column] = [
            Column(title: "engine", alignRight: false) { $0.engine.rawValue },
            Column(title: "dataset", alignRight: false) { $0.dataset },
            Column(title: "workload", alignRight: false) { $0.workload.rawValue },
            Column(title: "fences", alignRight: true) { fenceCountLabel($0.fences) },
            Column(title: "fixes", alignRight: true) { String($0.fixes) + ($0.subsampled ? subsampleMark : " ") },
            Column(title: "ns/fix median", alignRight: true) { fixed($0.nanosecondsPerFixMedian, places: 1) },
            Column(title: "ns/fix p99", alignRight: true) { fixed($0.nanosecondsPerFixP99, places: 1) },
            Column(title: "bytes/fence", alignRight: true) { fixed($0.bytesPerFence, places: 1) },
            Column(title: "gf_table_memory/fence", alignRight: true) {
                $0.tableMemoryPerFence.map { fixed($0, places: 1) } ?? "-"
            },
            Column(title: "build ns/fence", alignRight: true) { fixed($0.buildNanosecondsPerFence, places: 0) },
            Column(title: "hits", alignRight: true) { String($0.hits) },
            Column(title: "allocs/fix", alignRight: true) { result in
                result.allocationsPerFix.map { fixed($0, places: 3) }
                    ?? result.monitor.map { fixed($0.allocationsPerFixMedian, places: 3) } ?? "-"
            },
            Column(title: "vs geos", alignRight: true) { speedUp($0, over: .geosStrtree, geosMedianByKey) },
            Column(title: "vs best peer", alignRight: false) { speedUpOverBestPeer($0) },
            Column(title: "vs naive", alignRight: true) { speedUp($0, over: .naiveSwift, naiveMedianByKey) },
        ]

        let cells = ordered(results).map { result in columns.map { $0.cell(result) } }
        return grid(titles: columns.map(\.title), alignRight: columns.map(\.alignRight), cells: cells)
    }

    /// Per comparison key, the fastest peer's median and name (every engine of EngineName.peers that ran there).
    static func bestPeerMedians(_ results: [BenchmarkResult]) -> [String: (median: Double, engine: EngineName)] {
        var best: [String: (median: Double, engine: EngineName)] = [:]
        for row in results where EngineName.peers.contains(row.engine) && row.nanosecondsPerFixMedian.isFinite {
            if let current = best[row.comparisonKey], current.median <= row.nanosecondsPerFixMedian { continue }
            best[row.comparisonKey] = (row.nanosecondsPerFixMedian, row.engine)
        }
        return best
    }

    /// Lays out a table: a title line, a rule, then one line per row of `cells`, each column as wide as its widest
    /// text, two spaces apart. Also used by the polygon section (PolygonReport).
    static func grid(titles: [String], alignRight: [Bool], cells: [[String]]) -> [String] {
        let widths = titles.indices.map { index in
            max(titles[index].count, cells.map { $0[index].count }.max() ?? 0)
        }
        func line(_ texts: [String]) -> String {
            titles.indices.map { padded(texts[$0], to: widths[$0], alignRight: alignRight[$0]) }
                .joined(separator: "  ")
        }
        let rule = String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))
        return [line(titles), rule] + cells.map(line)
    }

    /// Datasets in the order they ran, then workloads, fence counts and engines in their declared order.
    private static func ordered(_ results: [BenchmarkResult]) -> [BenchmarkResult] {
        var datasetOrder: [String: Int] = [:]
        for result in results where datasetOrder[result.dataset] == nil {
            datasetOrder[result.dataset] = datasetOrder.count
        }
        let workloads = Workload.allCases
        let engines = EngineName.allCases
        func sortKey(_ result: BenchmarkResult) -> (Int, Int, Int, Int) {
            (datasetOrder[result.dataset] ?? 0, workloads.firstIndex(of: result.workload) ?? 0, result.fences,
             engines.firstIndex(of: result.engine) ?? 0)
        }
        return results.sorted { sortKey($0) < sortKey($1) }
    }
}
