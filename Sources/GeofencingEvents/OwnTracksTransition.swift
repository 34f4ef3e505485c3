import Foundation

/// An event as an OwnTracks `transition` message (the OwnTracks booklet, "JSON", `_type=transition`), the form
/// OwnTracks Recorder and Home Assistant's OwnTracks integration take from a phone:
/// `{"_type":"transition","event":"enter","desc":"stop-1234","t":"c","tst":1204583113,"wtst":731198084,`
/// `"lat":-27.5712345,"lon":153.0912345,"tid":"07","rid":"stop-1234"}`
///
/// - `event`: "enter" for an enter, "leave" for an exit. Dwell, approach and state events have no transition
///   counterpart: `json` is nil for them.
/// - `desc` and `rid`: the region's identifier (OwnTracks' region id is a string; the identifier is already unique
///   and stable).
/// - `t`: "c", a circular region (the only geographic trigger OwnTracks knows; polygons and corridors too).
/// - `tst`: in whole epoch seconds (rounded down), the booklet's "timestamp at which the event occurred": the
///   moment the phone crossed into or out of the region (its OS reports a region crossing, not a decision of
///   hysteresis rules). So the event's estimated crossing, `crossedAt`, where it has one; otherwise (an inferred
///   transition after a restart) its GNSS time.
/// - `wtst`: the time the waypoint was made, which pairs a transition with its waypoint in the Recorder. The store
///   does not keep when a region was made, so this is `waypointTimestamp(identifier:)`: the same number for the
///   same identifier on every unit, across restarts.
/// - `lat`, `lon`: the event's position, 7 decimals.
/// - `tid`: the tracker id, given by the caller.
/// - `acc` is left out: an event record does not carry the accuracy of the fix it came from (an inferred or
///   interpolated event has no fix of its own). Home Assistant then keeps its zone's position for an enter and the
///   last reported one for a leave; the Recorder stores the message as it is.
public enum OwnTracksTransition {
    /// The message for `event`, or nil when its kind has no transition form (dwell, approach, state, the overspeed kinds).
    public static func json(for event: EventRecord, trackerID: String) -> String? {
        let transition: String
        switch event.kind {
        case .enter: transition = "enter"
        case .exit: transition = "leave"
        case .dwell, .approach, .state, .overspeed, .overspeedEnd: return nil
        }
        let region = JSONText.quoted(event.region)
        let seconds = Int64((event.crossedAt ?? event.time).timeIntervalSince1970.rounded(.down))
        var line = "{\"_type\":\"transition\",\"event\":\"\(transition)\",\"desc\":\(region),\"t\":\"c\""
        line += ",\"tst\":\(seconds),\"wtst\":\(waypointTimestamp(identifier: event.region))"
        line += ",\"lat\":\(JSONText.fixed(event.latitude, decimals: 7))"
        line += ",\"lon\":\(JSONText.fixed(event.longitude, decimals: 7))"
        line += ",\"tid\":\(JSONText.quoted(trackerID)),\"rid\":\(region)}"
        return line
    }

    /// A stand-in for the waypoint's creation time: the 32-bit FNV-1a hash of the identifier's UTF-8, its top bit
    /// cleared (0 ... 2^31 - 1, a time between 1970 and 2038, which every consumer takes as an epoch second).
    public static func waypointTimestamp(identifier: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in identifier.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash & 0x7FFF_FFFF
    }
}
