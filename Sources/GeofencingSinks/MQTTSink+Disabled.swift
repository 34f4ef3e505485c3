#if !MQTT
import GeofencingEvents

/// MQTTSink in a build without the MQTT trait (no libmosquitto): it cannot be made; `init` says why.
public final class MQTTSink: EventSink, Sendable {
    /// Whether this build has MQTT (the package's MQTT trait).
    public static let isAvailable = false

    public let name: String
    public let format: MQTTFormat

    /// Checks the URL (a bad one is reported as such), then throws: this build has no MQTT.
    public init(
        url: String, security: MQTTSecurity = MQTTSecurity(), format: MQTTFormat = .geofence,
        clientID: String? = nil, publishTimeout: Double = 10, reconnectDelay: ClosedRange<Int> = 1...30,
        keepAlive: Int = 30, status: MQTTStatusReporting? = nil,
        maximumFenceSetBytes: Int = MQTTSink.defaultMaximumFenceSetBytes
    ) throws(SinkError) {
        let address = try MQTTAddress(url: url)
        name = address.sinkName
        self.format = format
        try security.check(for: address, sink: name)
        throw SinkError(
            sink: name,
            message: "MQTT is not available: GeofencingSinks was built without the MQTT trait (libmosquitto); rebuild "
                + "with the default traits (or --traits MQTT) and libmosquitto-dev installed")
    }

    public func deliver(_ event: EventRecord) throws(SinkError) {
        throw SinkError(sink: name, message: "built without the MQTT trait")
    }

    public var unpublishedEvents: Int { 0 }

    public var onFenceSetMessage: (@Sendable ([UInt8]) -> Void)? {
        get { nil }
        set {}
    }

    @discardableResult
    public func publishAck(_ json: String) -> Bool { false }

    @discardableResult
    public func publishStatus(_ json: String) -> Bool { false }

    public func reload() {}

    public func close() {}
}
#endif
