import Foundation
import Geofencing
import GeofencingStore

/// Reads the JSON Lines that `--format jsonl` writes back into events (for `geofence map --events`). Error lines
/// (`"type":"error"`) and blank lines are skipped; anything else malformed is an error naming the line.
enum EventLines {
    static func read(path: String) throws -> [EventRecord] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.failure("cannot read events \(path): \(String(cString: strerror(errno)))")
        }
        var events: [EventRecord] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false).enumerated()
        {
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { continue }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
                throw CLIError.failure("\(path):\(index + 1): not a JSON object")
            }
            if object["type"] as? String == "error" { continue }
            events.append(try record(object, at: "\(path):\(index + 1)"))
        }
        return events
    }

    private static func record(_ object: [String: Any], at place: String) throws -> EventRecord {
        func field<T>(_ key: String, _ type: T.Type) throws -> T {
            guard let value = object[key] as? T else { throw CLIError.failure("\(place): field \(key) missing or of the wrong type") }
            return value
        }
        let kindText = try field("type", String.self)
        guard let kind = EventRecord.Kind(rawValue: kindText) else {
            throw CLIError.failure("\(place): field type: unknown event type \"\(kindText)\"")
        }
        let stateText = try field("state", String.self)
        guard let state = RegionState(rawValue: stateText) else {
            throw CLIError.failure("\(place): field state: unknown state \"\(stateText)\"")
        }
        let timeText = try field("time", String.self)
        guard let time = ISO8601Parsing.date(timeText) else {
            throw CLIError.failure("\(place): field time: \"\(timeText)\" is not an ISO 8601 UTC time")
        }
        let sequence = try field("seq", NSNumber.self)
        return EventRecord(
            sequence: sequence.uint64Value, kind: kind, region: try field("region", String.self), time: time,
            latitude: try field("lat", NSNumber.self).doubleValue, longitude: try field("lon", NSNumber.self).doubleValue,
            distance: (object["distance_m"] as? NSNumber)?.doubleValue, state: state,
            inferred: (object["inferred"] as? Bool) ?? false, interpolated: (object["interpolated"] as? Bool) ?? false)
    }
}

/// ISO 8601 UTC times as the events carry them, with or without fractional seconds.
enum ISO8601Parsing {
    static func date(_ text: String) -> Date? {
        let whole = ISO8601DateFormatter()
        if let date = whole.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
