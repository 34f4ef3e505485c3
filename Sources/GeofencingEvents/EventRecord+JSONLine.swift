import Foundation
import Geofencing

/// The JSON Lines form of an event, fixed by the CLI's interface (one object, these keys in this order, more keys
/// allowed after them):
/// `{"seq":17,"type":"enter","region":"stop-1234","time":"2008-03-03T22:25:13Z","lat":-27.5712345,`
/// `"lon":153.0912345,"distance_m":-3.2,"state":"inside","inferred":false,"interpolated":false,`
/// `"crossed_at":"2008-03-03T22:25:11.417Z"}`
/// and the reading of such a line back into the record (`geofence map --events`). `crossed_at`, the estimated
/// crossing of the boundary (`EventRecord.crossedAt`), comes after them and only when the event has one (enters and
/// exits): absent, not null, for the other kinds. Overspeed events add `"max_speed_kmh":62.4,"over_limit_s":7`
/// instead (km/h and seconds with 1 decimal, trailing zeros removed; the speed is kept in m/s in the record).
extension EventRecord {
    /// One line of JSON (no newline). Coordinates with 7 decimals (the core's 1e-7 degree), distances in metres
    /// with 2 decimals (the core's band is at least 2 cm), time in whole seconds unless the fix had a fraction
    /// (`crossed_at` likewise: to the millisecond, as every time here).
    public var jsonLine: String {
        var line = "{\"seq\":\(sequence),\"type\":\"\(kind.rawValue)\",\"region\":\(JSONText.quoted(region))"
        line += ",\"time\":\"\(ISO8601Time.format(time))\""
        line += ",\"lat\":\(JSONText.fixed(latitude, decimals: 7)),\"lon\":\(JSONText.fixed(longitude, decimals: 7))"
        line += ",\"distance_m\":" + (distance.map { JSONText.fixed($0, decimals: 2) } ?? "null")
        line += ",\"state\":\"\(state.rawValue)\",\"inferred\":\(inferred),\"interpolated\":\(interpolated)"
        if let crossedAt { line += ",\"crossed_at\":\"\(ISO8601Time.format(crossedAt))\"" }
        if let maximumSpeed { line += ",\"max_speed_kmh\":" + JSONText.fixed(maximumSpeed * 3.6, decimals: 1) }
        if let overLimitDuration { line += ",\"over_limit_s\":" + JSONText.fixed(overLimitDuration, decimals: 1) }
        return line + "}"
    }

    /// The JSON Lines form of a failure: `{"type":"error","region":...,"message":...}` (region null when the
    /// failure concerns no region).
    public static func errorLine(region: String?, message: String) -> String {
        "{\"type\":\"error\",\"region\":\(region.map(JSONText.quoted) ?? "null"),\"message\":\(JSONText.quoted(message))}"
    }

    /// The event on one line of JSON Lines as `jsonLine` writes it; nil for a blank line or an error line
    /// (`"type":"error"`), which hold no event.
    ///
    /// Keys may come in any order and unknown keys are ignored. `distance_m` may be null or missing (no distance),
    /// `inferred` and `interpolated` missing (false), `crossed_at` null or missing (no crossing); every other key is
    /// required. `time` and `crossed_at` are read by `ISO8601Time.parse`.
    /// - Throws: `EventLineError` naming what is wrong.
    public static func parse(jsonLine line: some StringProtocol) throws(EventLineError) -> EventRecord? {
        let text = String(line).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return nil }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw .notAnObject
        }
        if object["type"] as? String == "error" { return nil }
        func field<T>(_ key: String, _ type: T.Type) throws(EventLineError) -> T {
            guard let value = object[key] as? T else { throw .missingField(key) }
            return value
        }
        let kindText = try field("type", String.self)
        guard let kind = Kind(rawValue: kindText) else { throw .badField("type", "unknown event type \"\(kindText)\"") }
        let stateText = try field("state", String.self)
        guard let state = RegionState(rawValue: stateText) else {
            throw .badField("state", "unknown state \"\(stateText)\"")
        }
        let timeText = try field("time", String.self)
        guard let time = ISO8601Time.parse(timeText) else {
            throw .badField("time", "\"\(timeText)\" is not an ISO 8601 UTC time")
        }
        var crossedAt: Date?
        if let crossingValue = object["crossed_at"], !(crossingValue is NSNull) {
            guard let crossingText = crossingValue as? String else { throw .badField("crossed_at", "not a string") }
            guard let crossing = ISO8601Time.parse(crossingText) else {
                throw .badField("crossed_at", "\"\(crossingText)\" is not an ISO 8601 UTC time")
            }
            crossedAt = crossing
        }
        let sequence = try field("seq", NSNumber.self)
        var record = EventRecord(
            sequence: sequence.uint64Value, kind: kind, region: try field("region", String.self), time: time,
            latitude: try field("lat", NSNumber.self).doubleValue,
            longitude: try field("lon", NSNumber.self).doubleValue,
            distance: (object["distance_m"] as? NSNumber)?.doubleValue, state: state,
            inferred: (object["inferred"] as? Bool) ?? false, interpolated: (object["interpolated"] as? Bool) ?? false,
            crossedAt: crossedAt)
        record.maximumSpeed = (object["max_speed_kmh"] as? NSNumber).map { $0.doubleValue / 3.6 }
        record.overLimitDuration = (object["over_limit_s"] as? NSNumber)?.doubleValue
        return record
    }
}
