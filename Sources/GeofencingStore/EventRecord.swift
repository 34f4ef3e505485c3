import Foundation
import Geofencing

/// An event as the store keeps it in its outbox and the sinks send it: the wire form of a `RegionEvent`.
///
/// `jsonLine` is the JSON Lines form fixed by the CLI's interface (one object, these keys in this order, more keys
/// allowed after them):
/// `{"seq":17,"type":"enter","region":"stop-1234","time":"2008-03-03T22:25:13Z","lat":-27.5712345,`
/// `"lon":153.0912345,"distance_m":-3.2,"state":"inside","inferred":false,"interpolated":false}`
public struct EventRecord: Sendable, Hashable, Codable {
    /// The wire names of the event kinds. `state` is a `RegionEvent.Kind.determined`; `approach` is reserved for
    /// approach alarms.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case enter, exit, dwell, approach, state
    }

    /// The monitor's sequence number: consecutive, without gaps, across restarts of the daemon.
    public var sequence: UInt64
    public var kind: Kind
    /// The region's identifier.
    public var region: String
    /// GNSS time of the event.
    public var time: Date
    public var latitude: Double
    public var longitude: Double
    /// Signed distance from the boundary in metres, negative inside; nil when the state became unknown.
    public var distance: Double?
    public var state: RegionState
    /// The change happened while no usable fixes came (an outage, or the daemon was down) and was found afterwards.
    public var inferred: Bool
    /// Time and position interpolated between two fixes (a fast pass through a small region).
    public var interpolated: Bool

    public init(
        sequence: UInt64, kind: Kind, region: String, time: Date, latitude: Double, longitude: Double,
        distance: Double?, state: RegionState, inferred: Bool = false, interpolated: Bool = false
    ) {
        self.sequence = sequence
        self.kind = kind
        self.region = region
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.distance = distance
        self.state = state
        self.inferred = inferred
        self.interpolated = interpolated
    }

    public init(_ event: RegionEvent) {
        let kind: Kind
        switch event.kind {
        case .enter: kind = .enter
        case .exit: kind = .exit
        case .dwell: kind = .dwell
        case .approach: kind = .approach
        case .determined: kind = .state
        }
        self.init(
            sequence: event.sequence, kind: kind, region: event.regionIdentifier, time: event.time,
            latitude: event.coordinate.latitude, longitude: event.coordinate.longitude, distance: event.distance,
            state: event.state, inferred: event.inferred, interpolated: event.interpolated)
    }

    /// One line of JSON (no newline). Coordinates with 7 decimals (the core's 1e-7 degree), distances in metres
    /// with 2 decimals (the core's band is at least 2 cm), time in whole seconds unless the fix had a fraction.
    public var jsonLine: String {
        var line = "{\"seq\":\(sequence),\"type\":\"\(kind.rawValue)\",\"region\":\(JSONText.quoted(region))"
        line += ",\"time\":\"\(JSONText.iso8601(time))\""
        line += ",\"lat\":\(JSONText.fixed(latitude, decimals: 7)),\"lon\":\(JSONText.fixed(longitude, decimals: 7))"
        line += ",\"distance_m\":" + (distance.map { JSONText.fixed($0, decimals: 2) } ?? "null")
        line += ",\"state\":\"\(state.rawValue)\",\"inferred\":\(inferred),\"interpolated\":\(interpolated)}"
        return line
    }

    /// The JSON Lines form of a failure: `{"type":"error","region":...,"message":...}` (region null when the
    /// failure concerns no region).
    public static func errorLine(region: String?, message: String) -> String {
        "{\"type\":\"error\",\"region\":\(region.map(JSONText.quoted) ?? "null"),\"message\":\(JSONText.quoted(message))}"
    }
}

/// The few pieces of JSON text the event lines need, written by hand so that key order and number formats are fixed.
public enum JSONText {
    /// A JSON string literal: quotes, backslashes and control characters escaped (RFC 8259 section 7).
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A finite number with a fixed number of decimals, trailing zeros removed ("-3.2", "153.0912345", "0");
    /// null for NaN or infinity, which JSON cannot carry.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// ISO 8601 UTC: "2008-03-03T22:25:13Z", or with milliseconds ("...13.500Z") when the time has a fraction.
    public static func iso8601(_ time: Date) -> String {
        let seconds = time.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let millis = Int(((seconds - whole) * 1000).rounded())
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let wholeSeconds = millis == 1000 ? whole + 1 : whole
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: wholeSeconds))
        let base = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!,
            parts.minute!, parts.second!)
        return millis == 0 || millis == 1000 ? base + "Z" : base + String(format: ".%03dZ", millis)
    }
}
