/// The table for people: one row per engine, dataset, workload and fence count, with the core's and the monitor's
/// speed-up over the naive engine on the same fences and fix stream.
enum TableReport {
    private struct Column {
        let title: String
        let alignRight: Bool
        let cell: (BenchmarkResult) -> String
    }

    static func render(_ results: [BenchmarkResult]) -> [String] {
        let naiveMedianByKey = Dictionary(
            results.filter { $0.engine == .naiveSwift }.map { ($0.comparisonKey, $0.nanosecondsPerFixMedian) },
            uniquingKeysWith: { first, _ in first })

        let columns: [Column] = [
            Column(title: "engine", alignRight: false) { $0.engine.rawValue },
            Column(title: "dataset", alignRight: false) { $0.dataset },
            Column(title: "workload", alignRight: false) { $0.workload.rawValue },
            Column(title: "fences", alignRight: true) { fenceCountLabel($0.fences) },
            Column(title: "fixes", alignRight: true) { String($0.fixes) },
            Column(title: "ns/fix median", alignRight: true) { fixed($0.nanosecondsPerFixMedian, places: 1) },
            Column(title: "ns/fix p99", alignRight: true) { fixed($0.nanosecondsPerFixP99, places: 1) },
            Column(title: "bytes/fence", alignRight: true) { fixed($0.bytesPerFence, places: 1) },
            Column(title: "gf_table_memory/fence", alignRight: true) {
                $0.tableMemoryPerFence.map { fixed($0, places: 1) } ?? "-"
            },
            Column(title: "build ns/fence", alignRight: true) { fixed($0.buildNanosecondsPerFence, places: 0) },
            Column(title: "hits", alignRight: true) { String($0.hits) },
            Column(title: "allocs/fix", alignRight: true) { result in
                result.monitor.map { fixed($0.allocationsPerFixMedian, places: 3) } ?? "-"
            },
            Column(title: "speed-up", alignRight: true) { result in
                guard result.engine != .naiveSwift, let naive = naiveMedianByKey[result.comparisonKey] else {
                    return "-"
                }
                return fixed(naive / result.nanosecondsPerFixMedian, places: 1) + "x"
            },
        ]

        let cells = results.map { result in columns.map { $0.cell(result) } }
        let widths = columns.indices.map { index in
            max(columns[index].title.count, cells.map { $0[index].count }.max() ?? 0)
        }
        func line(_ texts: [String]) -> String {
            columns.indices.map { padded(texts[$0], to: widths[$0], alignRight: columns[$0].alignRight) }
                .joined(separator: "  ")
        }
        let rule = String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))
        return [line(columns.map(\.title)), rule] + cells.map(line)
    }
}
