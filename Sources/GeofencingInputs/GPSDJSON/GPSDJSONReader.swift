import Foundation
import Geofencing

/// Reads gpsd JSON logs, the lines `gpspipe -w` writes, into observations: a pure parser fed bytes or lines, like
/// `NMEAReader`.
///
/// TPV reports make the observations: mode 2 or 3 with a position is a fix, mode 0 or 1 no fix; a TPV without a
/// time is skipped (gpsd cannot date a GGA before it has seen a date). gpsd sends several TPVs per epoch, each a
/// fuller merge of the epoch's sentences, so consecutive TPVs with the same time become one observation, from the
/// last of them. An observation is therefore complete when a TPV with another time arrives, or at `finish()`.
/// A GST report with the epoch's time, before or after its TPVs, gives the fix its accuracy, as `GPSDSource` does
/// live (the model of `HorizontalAccuracyEstimate`).
/// Text before the first `{` of a line is ignored (`gpspipe -u` puts a timestamp there). Reports from several
/// devices are read as one stream.
///
/// A report is read as JSON is read, with any white space between its tokens: on one line (`gpspipe -w`, with or
/// without spaces after the colons) or over several (gpsd's `"pretty":true` watch, `jq`, an editor). An object left
/// open at the end of its line continues on the following lines while they begin with white space, `}` or `]`, as
/// every pretty-printer indents what is inside an object; any other line (a new report at the start of a line, an
/// empty line, NMEA) ends it, and the cut-off report is counted as bad at the line where it started. A report may
/// span at most 1 MiB, as a line may.
public struct GPSDJSONReader: Sendable {
    /// Names the input in the recorded problems (a path, "stdin").
    public let source: String
    /// Counts of everything read so far.
    public private(set) var statistics = GPSDJSONReadStatistics()
    private static let maximumReportLength = 1 << 20                // a SKY report with 100 satellites is ~10 KB
    private var splitter = LineSplitter(maximumLength: maximumReportLength)
    private var pending: Observation?
    /// The accuracy from the latest GST report, with its time.
    private var epochGST: (time: Date, accuracy: Double)?
    /// A report begun on an earlier line and still open.
    private var openReport: (bytes: [UInt8], line: Int, nesting: GPSDJSONNesting)?

    public init(source: String = "gpsd JSON") {
        self.source = source
    }

    /// Reads a chunk of a byte stream and returns the observations it completes.
    public mutating func read(bytes: some Sequence<UInt8>) -> [Observation] {
        var lines: [LineSplitter.Line] = []
        splitter.split(bytes, into: &lines)
        return lines.flatMap { read($0) }
    }

    /// Reads one line, without its line end.
    public mutating func read(line: some Collection<UInt8>) -> [Observation] {
        read(.text(Array(line)))
    }

    /// Ends the input and returns the last observation.
    public mutating func finish() -> [Observation] {
        var lines: [LineSplitter.Line] = []
        splitter.finish(into: &lines)
        var output = lines.flatMap { read($0) }
        output += endOpenReport()
        if let pending {
            count(pending)
            output.append(pending)
        }
        pending = nil
        return output
    }

    private mutating func read(_ line: LineSplitter.Line) -> [Observation] {
        statistics.lines += 1
        guard case .text(let bytes) = line else {
            return endOpenReport() + bad("line longer than 1 MiB")
        }
        var output: [Observation] = []
        if var open = openReport {
            if let first = bytes.first, GPSDJSONNesting.continuesAnObject(first) {
                open.bytes.append(UInt8(ascii: "\n"))
                open.bytes += bytes
                open.nesting.scan(bytes)
                statistics.continuationLines += 1
                openReport = open
                if open.nesting.isClosed || open.bytes.count > Self.maximumReportLength {
                    openReport = nil
                    return report(open.bytes, line: open.line)
                }
                return []
            }
            output = endOpenReport()
        }
        guard let brace = bytes.firstIndex(of: UInt8(ascii: "{")) else {
            if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
                statistics.ignoredLines += 1
                return output
            }
            return output + bad("not a JSON object")
        }
        var nesting = GPSDJSONNesting()
        nesting.scan(bytes[brace...])
        if !nesting.isClosed {
            openReport = (Array(bytes[brace...]), statistics.lines, nesting)
            return output
        }
        return output + report(Array(bytes[brace...]), line: statistics.lines)
    }

    /// The open report as it stands (bad: it was cut off), when there is one.
    private mutating func endOpenReport() -> [Observation] {
        guard let open = openReport else { return [] }
        openReport = nil
        return report(open.bytes, line: open.line)
    }

    /// One report: a JSON object from its `{`, beginning at `line`.
    private mutating func report(_ bytes: [UInt8], line: Int) -> [Observation] {
        let report: GPSDReport
        do {
            report = try JSONDecoder().decode(GPSDReport.self, from: Data(bytes))
        } catch {
            return bad("not a gpsd report: \(Self.describe(error))", line: line)
        }
        if report.reportClass == "GST" { accept(gst: report) }
        guard report.reportClass == "TPV" else {
            statistics.otherReports += 1
            return []
        }
        guard var observation = report.observation else {
            statistics.unusableReports += 1
            return []
        }
        statistics.usedReports += 1
        if let epochGST, epochGST.time == observation.time { observation = Self.with(epochGST.accuracy, observation) }
        defer { pending = observation }
        guard let previous = pending, previous.time != observation.time else { return [] }
        count(previous)
        return [previous]
    }

    /// Keeps a GST's accuracy for its epoch and gives it to the epoch's fix if that came first.
    private mutating func accept(gst report: GPSDReport) {
        guard let time = report.time, let latitude = report.lat, let longitude = report.lon,
              let accuracy = HorizontalAccuracyEstimate.fromSigmas(latitude: latitude, longitude: longitude)
        else { return }
        epochGST = (time, accuracy)
        if let pending, pending.time == time { self.pending = Self.with(accuracy, pending) }
    }

    private static func with(_ accuracy: Double, _ observation: Observation) -> Observation {
        guard case .fix(var fix) = observation else { return observation }
        fix.horizontalAccuracy = accuracy
        return .fix(fix)
    }

    private mutating func count(_ observation: Observation) {
        if observation.fix != nil { statistics.fixes += 1 } else { statistics.noFixes += 1 }
    }

    private mutating func bad(_ reason: String, line: Int? = nil) -> [Observation] {
        statistics.badLines += 1
        if statistics.problems.count < 20 {
            statistics.problems.append(TrackReadError(source: source, line: line ?? statistics.lines, message: reason))
        }
        return []
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            InputText.shown(context.debugDescription, limit: InputText.maximumShownMessageCharacters)
        case DecodingError.keyNotFound(let key, _): "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        default: "\(error)"
        }
    }
}
