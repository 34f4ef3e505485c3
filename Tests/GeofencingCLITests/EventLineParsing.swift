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
