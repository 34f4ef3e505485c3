import Foundation

/// One event line of `--format jsonl`, as a test reads it back.
struct EventLine: Hashable {
    var seq: UInt64
    var type: String
    var region: String
    var time: String
    var lat: Double
    var lon: Double
    var distance: Double?
    var state: String
    var inferred: Bool

    /// Parses every non-empty line; a line that is not an event object fails the parse with its text.
    static func parse(_ text: String) throws -> [EventLine] {
        try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let seq = object["seq"] as? NSNumber, let type = object["type"] as? String,
                  let region = object["region"] as? String, let time = object["time"] as? String,
                  let lat = object["lat"] as? NSNumber, let lon = object["lon"] as? NSNumber,
                  let state = object["state"] as? String, let inferred = object["inferred"] as? Bool
            else { throw ParseError(line: String(line)) }
            return EventLine(
                seq: seq.uint64Value, type: type, region: region, time: time, lat: lat.doubleValue,
                lon: lon.doubleValue, distance: (object["distance_m"] as? NSNumber)?.doubleValue, state: state,
                inferred: inferred)
        }
    }

    struct ParseError: Error, CustomStringConvertible {
        var line: String
        var description: String { "not an event line: \(line)" }
    }
}

/// What a daemon killed with SIGKILL left on its standard output (a regular file): its lines, every one whole and an
/// event, and the part of a line its last write left if the kill cut that write short. The kernel ends a write(2) to
/// a regular file at a page boundary once SIGKILL is pending, so a batch written in one call can stop mid-line; the
/// store still has the events of that batch and the next daemon delivers them again.
struct KilledDaemonOutput {
    var events: [EventLine]
    var lines: [String]
    /// The bytes after the last newline, if any.
    var cutLine: String?

    init(contentsOf url: URL) throws {
        let text = String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let tail = lines.removeLast()  // "" when the text ends with a newline (or is empty)
        self.cutLine = tail.isEmpty ? nil : tail
        self.lines = lines
        self.events = try lines.flatMap { try EventLine.parse($0) }
    }
}
