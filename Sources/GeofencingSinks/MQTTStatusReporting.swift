/// What an `MQTTSink` publishes on `BASE/status` (retained, QoS 1): JSON its owner (the daemon, which knows the
/// unit) makes on request. The sink asks for it
/// - online (`report(true)`): after each CONNACK, then every `interval` seconds while connected (0: never
///   periodically); the owner publishes it on a change itself (`MQTTSink.publishStatus`);
/// - offline (`report(false)`): before each connection attempt, as the connection's Last Will, which the broker
///   publishes when the connection ends without a DISCONNECT (the unit killed, its power or network gone).
/// `report` is called on the sink's network thread: it must be quick and must not call into the sink.
public struct MQTTStatusReporting: Sendable {
    public var report: @Sendable (_ online: Bool) -> String
    /// Seconds between two online statuses while connected; 0 for none but at connection and on the owner's call.
    public var interval: Int

    public init(interval: Int, report: @escaping @Sendable (_ online: Bool) -> String) {
        self.interval = interval
        self.report = report
    }
}
