import Foundation
import Geofencing

/// Reads gpsd JSON logs, the lines `gpspipe -w` writes, into observations: a pure parser fed bytes or lines, like
/// `NMEAReader`.
///
/// Only TPV reports are used: mode 2 or 3 with a position is a fix, mode 0 or 1 no fix; a TPV without a time is
/// skipped (gpsd cannot date a GGA before it has seen a date). gpsd sends several TPVs per epoch, each a fuller
/// merge of the epoch's sentences, so consecutive TPVs with the same time become one observation, from the last of
/// them. An observation is therefore complete when a TPV with another time arrives, or at `finish()`.
/// Text before the first `{` of a line is ignored (`gpspipe -u` puts a timestamp there). Reports from several
/// devices are read as one stream.
public struct GPSDJSONReader: Sendable {
    /// Names the input in the recorded problems (a path, "stdin").
    public let source: String
    /// Counts of everything read so far.
    public private(set) var statistics = GPSDJSONReadStatistics()
    private var splitter = LineSplitter(maximumLength: 1 << 20)     // a SKY report with 100 satellites is ~10 KB
    private var pending: Observation?

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
            return bad("line longer than 1 MiB")
        }
        guard let brace = bytes.firstIndex(of: UInt8(ascii: "{")) else {
            if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
                statistics.ignoredLines += 1
                return []
            }
            return bad("not a JSON object")
        }
        let report: GPSDReport
        do {
            report = try JSONDecoder().decode(GPSDReport.self, from: Data(bytes[brace...]))
        } catch {
            return bad("not a gpsd report: \(Self.describe(error))")
        }
        guard report.reportClass == "TPV" else {
            statistics.otherReports += 1
            return []
        }
        guard let observation = report.observation else {
            statistics.unusableReports += 1
            return []
        }
        statistics.usedReports += 1
        defer { pending = observation }
        guard let previous = pending, previous.time != observation.time else { return [] }
        count(previous)
        return [previous]
    }

    private mutating func count(_ observation: Observation) {
        if observation.fix != nil { statistics.fixes += 1 } else { statistics.noFixes += 1 }
    }

    private mutating func bad(_ reason: String) -> [Observation] {
        statistics.badLines += 1
        if statistics.problems.count < 20 {
            statistics.problems.append(TrackReadError(source: source, line: statistics.lines, message: reason))
        }
        return []
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        default: "\(error)"
        }
    }
}
