import Foundation
import Geofencing
import GeofencingEvents

/// The unit's status as the daemon publishes it on `BASE/status` (retained; its offline form is the MQTT Last Will):
///
///     {"status":"online","version":"0.1.0","commit":"ee0bba3c…","traits":["GPSD","MQTT"],"fences":40,
///      "fence_set_version":null,
///      "last_fix":{"time":"2026-12-02T02:40:00Z","mode":"3d"},"backlog":{"mqtt:broker:8883/fleet/7":0},
///      "uptime_s":3600,"time":"2026-12-02T02:40:01Z"}
///
/// `version`, `commit` (null outside a git checkout) and `traits` say what the unit runs (`geofence --version`).
/// `last_fix` is the GNSS time of the latest observation and its mode: "3d" for a fix with an altitude, "2d" for one
/// without, "none" for a report without a position; null before the first. `backlog` counts each sink's stored
/// events not yet delivered. `time` is the unit's wall clock (the status only; never in the rules).
struct UnitStatus: Equatable, Sendable {
    enum FixMode: String, Sendable {
        case twoD = "2d"
        case threeD = "3d"
        case none

        init(_ observation: Observation) {
            switch observation {
            case .fix(let fix): self = fix.altitude == nil ? .twoD : .threeD
            case .noFix: self = .none
            }
        }
    }

    var fences = 0
    var fenceSetVersion: String?
    var lastFixTime: Date?
    var lastFixMode: FixMode?
    var backlog: [String: UInt64] = [:]

    /// What publishes the status again when it changes: the fences, their version, the fix mode (not each fix).
    var publishedPart: [String?] {
        [String(fences), fenceSetVersion, lastFixMode?.rawValue]
    }

    func json(online: Bool, uptime: Duration, now: Date) -> String {
        var lastFix = "null"
        if let lastFixTime, let lastFixMode {
            lastFix = "{\"time\":\"\(ISO8601Time.format(lastFixTime))\",\"mode\":\"\(lastFixMode.rawValue)\"}"
        }
        let sinks = backlog.keys.sorted().map { "\(JSONText.quoted($0)):\(backlog[$0]!)" }.joined(separator: ",")
        let commit: String = Version.commit.map(JSONText.quoted) ?? "null"
        let traits: String = Version.traits.map(JSONText.quoted).joined(separator: ",")
        return "{\"status\":\"\(online ? "online" : "offline")\",\"version\":\(JSONText.quoted(Version.current)),"
            + "\"commit\":\(commit),\"traits\":[\(traits)],"
            + "\"fences\":\(fences),\"fence_set_version\":\(fenceSetVersion.map(JSONText.quoted) ?? "null"),"
            + "\"last_fix\":\(lastFix),\"backlog\":{\(sinks)},\"uptime_s\":\(uptime.components.seconds),"
            + "\"time\":\"\(ISO8601Time.format(now))\"}"
    }
}
