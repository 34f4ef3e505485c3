/// The topics of one unit under its base topic (the path of the `--mqtt` URL, `MQTTAddress.topic`).
///
/// - events: `BASE/events`, each event (QoS 1).
/// - status: `BASE/status`, the unit's status JSON (retained, QoS 1); the Last Will is its offline form.
/// - fences: `BASE/fences`, the fence sets the back-end publishes (retained); subscribed with QoS 1.
/// - fenceAcks: `BASE/fences/ack`, the unit's answer to each fence set (QoS 1, not retained).
public struct MQTTTopics: Sendable, Hashable {
    public var base: String
    public var events: String
    public var status: String
    public var fences: String
    public var fenceAcks: String

    public init(base: String) {
        self.base = base
        events = base + "/events"
        status = base + "/status"
        fences = base + "/fences"
        fenceAcks = base + "/fences/ack"
    }

    /// The longest level appended to the base ("/fences/ack"): a base topic may have 65535 bytes less this.
    static let longestSuffix = "/fences/ack".utf8.count
}

extension MQTTSink {
    /// The default bound of a fence-set message's payload (`maximumFenceSetBytes`): 64 MiB. Here, beside the topics,
    /// so that the builds with and without the MQTT trait share it.
    public static let defaultMaximumFenceSetBytes = 64 << 20
}
