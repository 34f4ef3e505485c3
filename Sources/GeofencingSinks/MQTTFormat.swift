import GeofencingEvents

/// What an `MQTTSink` publishes for an event, and where under the URL's topic (the unit's base topic).
/// Available with or without the MQTT trait, so that `--mqtt-format` is checked either way.
///
/// - `geofence`: the event's JSON line (`EventRecord.jsonLine`), every kind, to `BASE/events`.
/// - `owntracks`: an OwnTracks transition (`OwnTracksTransition`) for enters and exits, to `BASE/event`, where BASE
///   is OwnTracks' `owntracks/USER/DEVICE`; dwell, approach and state events have no OwnTracks counterpart and are
///   not published (the sink counts them: `MQTTSink.unpublishedEvents`).
public enum MQTTFormat: Sendable, Hashable {
    case geofence
    /// `trackerID`: OwnTracks' `tid`, the short name an OwnTracks map shows for the unit.
    case owntracks(trackerID: String)

    /// The names `--mqtt-format` takes.
    public static let names = ["geofence", "owntracks"]

    /// The format called `name` (one of `names`) for a sink publishing under `address`. The tracker id is
    /// `trackerID` when given, else the last two characters of the DEVICE level.
    /// - Throws: `SinkError` for an unknown name, an owntracks base topic that is not `owntracks/USER/DEVICE`, or
    ///   a tracker id given without the owntracks format.
    public init(name: String, trackerID: String? = nil, address: MQTTAddress) throws(SinkError) {
        switch name {
        case "geofence":
            if trackerID != nil {
                throw SinkError(sink: address.sinkName, message: "a tracker id is for the owntracks format only")
            }
            self = .geofence
        case "owntracks":
            let levels = address.topic.split(separator: "/", omittingEmptySubsequences: false)
            guard levels.count == 3, levels[0] == "owntracks", !levels[1].isEmpty, !levels[2].isEmpty else {
                throw SinkError(
                    sink: address.sinkName,
                    message: "the owntracks format needs the topic owntracks/USER/DEVICE (OwnTracks' layout), not "
                        + "\"\(PrintableText.escaped(address.topic))\"")
            }
            self = .owntracks(trackerID: trackerID ?? String(levels[2].suffix(2)))
        default:
            throw SinkError(
                sink: address.sinkName,
                message: "unknown format \"\(PrintableText.escaped(name))\"; expected geofence or owntracks")
        }
    }

    /// "geofence" or "owntracks".
    public var name: String {
        switch self {
        case .geofence: "geofence"
        case .owntracks: "owntracks"
        }
    }

    /// The topic and payload of `event` among the unit's `topics`, or nil when this format has no form for its kind.
    public func message(for event: EventRecord, topics: MQTTTopics) -> (topic: String, payload: String)? {
        switch self {
        case .geofence:
            return (topics.events, event.jsonLine)
        case .owntracks(let trackerID):
            guard let json = OwnTracksTransition.json(for: event, trackerID: trackerID) else { return nil }
            return (topics.base + "/event", json)
        }
    }
}
