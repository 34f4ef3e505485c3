import Glibc

/// The plot people look at instead of the table: median ns per fix against fence count, both axes logarithmic, one
/// panel per workload (rows) and dataset (columns), one line per engine. All panels share their axes, so panels can
/// be compared by eye. Written as a self-contained SVG (no fonts or scripts fetched).
enum LogLogPlot {
    private static let panelWidth = 250.0
    private static let panelHeight = 190.0
    private static let leftMargin = 70.0
    private static let topMargin = 70.0
    private static let columnGap = 40.0
    private static let rowGap = 60.0
    /// One colour per engine, in EngineName order; chosen to stay distinct for colour-blind readers.
    private static let colours = ["#0072B2", "#56B4E9", "#D55E00", "#CC79A7", "#000000", "#999999", "#E69F00",
                                  "#009E73"]

    static func svg(_ results: [BenchmarkResult]) -> String {
        var datasets: [String] = []
        for result in results where !datasets.contains(result.dataset) { datasets.append(result.dataset) }
        let workloads = Workload.allCases.filter { workload in results.contains { $0.workload == workload } }
        let plotted = results.filter { $0.nanosecondsPerFixMedian > 0 && $0.nanosecondsPerFixMedian.isFinite }
        guard !plotted.isEmpty else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>" }

        let xRange = decadeRange(plotted.map { Double($0.fences) })
        let yRange = decadeRange(plotted.map(\.nanosecondsPerFixMedian))
        let width = leftMargin + Double(datasets.count) * (panelWidth + columnGap)
        let height = topMargin + Double(workloads.count) * (panelHeight + rowGap)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text x=\"\(leftMargin)\" y=\"20\" font-size=\"14\">ns per fix (median) against fences, log-log; "
            + "hollow points: the engine ran only the first fixes of the stream</text>\n"
        for (index, engine) in EngineName.allCases.enumerated() {
            let x = leftMargin + Double(index) * 120
            svg += "<line x1=\"\(x)\" y1=\"38\" x2=\"\(x + 20)\" y2=\"38\" stroke=\"\(colours[index])\" "
                + "stroke-width=\"2\"/><text x=\"\(x + 25)\" y=\"42\">\(engine.rawValue)</text>\n"
        }

        for (row, workload) in workloads.enumerated() {
            for (column, dataset) in datasets.enumerated() {
                let originX = leftMargin + Double(column) * (panelWidth + columnGap)
                let originY = topMargin + Double(row) * (panelHeight + rowGap)
                let panel = Panel(originX: originX, originY: originY, xRange: xRange, yRange: yRange)
                svg += panel.frame(title: "\(dataset) · \(workload.rawValue)", yLabels: column == 0)
                for (index, engine) in EngineName.allCases.enumerated() {
                    let series = plotted
                        .filter { $0.engine == engine && $0.dataset == dataset && $0.workload == workload }
                        .sorted { $0.fences < $1.fences }
                    svg += panel.series(series, colour: colours[index])
                }
            }
        }
        return svg + "</svg>\n"
    }

    /// Writes the SVG to `path`. Returns nil on success, else why not.
    static func write(_ results: [BenchmarkResult], to path: String) -> String? {
        guard let file = fopen(path, "wb") else { return "cannot open \(path): \(String(cString: strerror(errno)))" }
        let text = svg(results)
        let written = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, file) }
        let closed = fclose(file)
        return written == text.utf8.count && closed == 0 ? nil : "cannot write \(path)"
    }

    /// The whole decades (as exponents of ten) that hold every value.
    private static func decadeRange(_ values: [Double]) -> ClosedRange<Int> {
        let low = Int(log10(values.min()!).rounded(.down))
        let high = Int(log10(values.max()!).rounded(.up))
        return low...max(high, low + 1)
    }

    /// One panel: its frame, decade grid and labels, and how values map to its pixels.
    private struct Panel {
        let originX: Double
        let originY: Double
        let xRange: ClosedRange<Int>
        let yRange: ClosedRange<Int>

        func x(_ fences: Double) -> Double {
            originX + (log10(fences) - Double(xRange.lowerBound))
                / Double(xRange.upperBound - xRange.lowerBound) * panelWidth
        }

        func y(_ nanoseconds: Double) -> Double {
            originY + panelHeight - (log10(nanoseconds) - Double(yRange.lowerBound))
                / Double(yRange.upperBound - yRange.lowerBound) * panelHeight
        }

        func frame(title: String, yLabels: Bool) -> String {
            var svg = "<text x=\"\(originX)\" y=\"\(originY - 8)\" font-weight=\"bold\">\(title)</text>\n"
            svg += "<rect x=\"\(originX)\" y=\"\(originY)\" width=\"\(panelWidth)\" height=\"\(panelHeight)\" "
                + "fill=\"none\" stroke=\"#444\"/>\n"
            for decade in xRange {
                let px = fixed(x(pow(10, Double(decade))), places: 1)
                svg += "<line x1=\"\(px)\" y1=\"\(originY)\" x2=\"\(px)\" y2=\"\(originY + panelHeight)\" "
                    + "stroke=\"#ddd\"/><text x=\"\(px)\" y=\"\(originY + panelHeight + 14)\" "
                    + "text-anchor=\"middle\">10^\(decade)</text>\n"
            }
            for decade in yRange {
                let py = fixed(y(pow(10, Double(decade))), places: 1)
                svg += "<line x1=\"\(originX)\" y1=\"\(py)\" x2=\"\(originX + panelWidth)\" y2=\"\(py)\" "
                    + "stroke=\"#ddd\"/>\n"
                if yLabels {
                    svg += "<text x=\"\(originX - 5)\" y=\"\(py)\" text-anchor=\"end\" dominant-baseline=\"middle\">"
                        + "\(decadeLabel(decade))</text>\n"
                }
            }
            svg += "<text x=\"\(originX + panelWidth / 2)\" y=\"\(originY + panelHeight + 28)\" "
                + "text-anchor=\"middle\">fences</text>\n"
            return svg
        }

        func series(_ rows: [BenchmarkResult], colour: String) -> String {
            guard !rows.isEmpty else { return "" }
            let points = rows.map { (fixed(x(Double($0.fences)), places: 1),
                                     fixed(y($0.nanosecondsPerFixMedian), places: 1), $0.subsampled) }
            var svg = ""
            if points.count > 1 {
                svg += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\""
                    + points.map { "\($0.0),\($0.1)" }.joined(separator: " ") + "\"/>\n"
            }
            for (px, py, subsampled) in points {
                svg += "<circle cx=\"\(px)\" cy=\"\(py)\" r=\"3\" fill=\"\(subsampled ? "white" : colour)\" "
                    + "stroke=\"\(colour)\" stroke-width=\"1.5\"/>\n"
            }
            return svg
        }

        /// "10 ns", "1 µs", "100 ms": the decade's time in a readable unit.
        private func decadeLabel(_ decade: Int) -> String {
            let units = ["ns", "µs", "ms", "s"]
            let unit = min(max(decade, 0) / 3, units.count - 1)
            var value = 1
            for _ in 0..<(max(decade, 0) - unit * 3) { value *= 10 }
            return "\(value) \(units[unit])"
        }
    }
}
