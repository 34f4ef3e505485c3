import GeofencingEvents

/// The unit's answer to one fence set or patch, published on BASE/fences/ack and printed by
/// `geofence fences apply`:
/// `{"version":"43","status":"applied","fences":120,"added":2,"removed":1,"replaced":3,"error":null}`.
///
/// `version` is the message's (null when it could not be read); `fences` is how many fences the store holds after
/// the message (before it, for a rejected one, which changed nothing); `added`, `removed`, `replaced` count
/// identifiers new, gone, and kept with a changed definition (all 0 unless applied).
struct FenceSetAck: Sendable, Equatable {
    enum Status: String, Sendable {
        case applied, unchanged, rejected
    }

    var version: String?
    var status: Status
    var fences: Int
    var added = 0
    var removed = 0
    var replaced = 0
    /// Why a message was rejected; nil otherwise.
    var error: String?

    var json: String {
        "{\"version\":\(version.map(JSONText.quoted) ?? "null"),\"status\":\"\(status.rawValue)\","
            + "\"fences\":\(fences),\"added\":\(added),\"removed\":\(removed),\"replaced\":\(replaced),"
            + "\"error\":\(error.map(JSONText.quoted) ?? "null")}"
    }
}
