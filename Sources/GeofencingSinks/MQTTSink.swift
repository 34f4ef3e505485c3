#if MQTT
import CMosquitto
import Geofencing
import GeofencingEvents
import Glibc

/// Publishes each event's JSON line to an MQTT broker with QoS 1, through libmosquitto, on `BASE/events` (the URL's
/// path is the unit's base topic, `MQTTTopics`); over the same connection, the unit's status (`status`) and its
/// fence sets (`onFenceSetMessage`, `publishAck`).
///
/// The connection lives in a network thread of its own (`MQTTConnection`, running libmosquitto's loop): it connects
/// in the background and reconnects whenever the broker goes away or cannot be reached, waiting `reconnectDelay`
/// between attempts (doubling from the lower to the upper bound). Clean session, so the broker keeps nothing for us
/// between connections; the daemon's store is what keeps undelivered events.
///
/// `deliver` publishes and waits for the broker's PUBACK (at most `publishTimeout` seconds). It throws at once when
/// the sink is not connected (after a failed attempt; the first attempt after start-up is waited for), and when
/// the connection is lost before the PUBACK. A message libmosquitto had already sent is sent again after it
/// reconnects, so a consumer can see an event twice: at least once, with `seq` to drop repeats.
///
/// Over mqtts:// (see `MQTTConnection` and `MQTTSecurity`) a broker whose certificate cannot be verified or does not
/// name the host is not connected to; a broker that refuses the user name and password, or a publish (MQTT 5's
/// PUBACK reason code, such as "not authorized" from its ACL), fails `deliver` with the broker's reason. The event
/// stays queued in every case; `reload()` (SIGHUP) reads the files again for the next connection attempt.
public final class MQTTSink: EventSink, Sendable {
    /// Whether this build has MQTT (the package's MQTT trait).
    public static let isAvailable = true

    /// What the broker may send beyond a fence set's payload in its PUBLISH packet: the fixed header, the topic, the
    /// packet identifier and up to 64 KiB of properties.
    static let packetHeadroom = 65_536 + 16

    /// "mqtt:host:port/BASE" (the delivery-cursor key in the store).
    public let name: String
    public let address: MQTTAddress
    public let clientID: String
    /// Seconds `deliver` waits for the PUBACK (and, right after start-up, for the connection).
    public let publishTimeout: Double
    public let security: MQTTSecurity
    /// What is published for each event, and to which topic under the URL's (`MQTTFormat`).
    public let format: MQTTFormat
    public let status: MQTTStatusReporting?

    private let connection: MQTTConnection
    private let unpublished = Locked(0)

    /// Events `deliver` took without publishing them, because `format` has no form for their kind (dwell,
    /// approach and state events in OwnTracks' format). Callable from any thread.
    public var unpublishedEvents: Int { unpublished.withLock { $0 } }

    /// - Parameters:
    ///   - url: mqtt://host[:port]/topic or mqtts://host[:port]/topic (see `MQTTAddress`).
    ///   - security: the CA file, client certificate and key (mqtts:// only), user name and password file.
    ///   - format: the event's JSON line (default) or OwnTracks transitions (`MQTTFormat`).
    ///   - clientID: the MQTT client identifier; default "geofence-<pid>". A broker drops the older of two
    ///     connections with the same identifier, so two sinks in one process need different ones.
    ///   - publishTimeout: seconds to wait for a PUBACK; more than 0.
    ///   - reconnectDelay: seconds between reconnection attempts, doubling from the lower bound to the upper.
    ///   - keepAlive: seconds of silence after which the client pings the broker; a broker that does not answer is
    ///     taken as gone after 1.5 times this (a half-open TCP connection, e.g. after a mobile network handover).
    ///   - status: the unit's status on `BASE/status` and the Last Will (see `MQTTStatusReporting`); nil for none.
    ///   - maximumFenceSetBytes: the largest fence-set payload the broker may send; with the packet's own bytes
    ///     (`packetHeadroom`) it is the CONNECT's Maximum Packet Size (MQTT 5), so the broker drops a larger message
    ///     for this client instead of sending it (mosquitto logs "Dropping too large outgoing PUBLISH"; the
    ///     back-end's PUBACK does not say so). A message between the two bounds reaches the handler, which refuses it.
    /// - Throws: `SinkError` for a bad URL or argument, a file of `security` that cannot be read (or that others
    ///   may read: the key, the password file), or when libmosquitto cannot make a client.
    public init(
        url: String, security: MQTTSecurity = MQTTSecurity(), format: MQTTFormat = .geofence,
        clientID: String? = nil, publishTimeout: Double = 10, reconnectDelay: ClosedRange<Int> = 1...30,
        keepAlive: Int = 30, status: MQTTStatusReporting? = nil,
        maximumFenceSetBytes: Int = MQTTSink.defaultMaximumFenceSetBytes
    ) throws(SinkError) {
        let address = try MQTTAddress(url: url)
        let name = address.sinkName
        try security.check(for: address, sink: name)
        let password = try security.load(sink: name)
        let clientID = clientID ?? "geofence-\(getpid())"
        guard publishTimeout.isFinite && publishTimeout > 0 else {
            throw SinkError(
                sink: name, message: "publish timeout \(publishTimeout) is not a positive number of seconds")
        }
        guard reconnectDelay.lowerBound >= 1 else {
            throw SinkError(sink: name, message: "reconnect delay \(reconnectDelay) must start at 1 s or more")
        }
        guard (5...65535).contains(keepAlive) else {
            throw SinkError(sink: name, message: "keep-alive \(keepAlive) s is not from 5 to 65535")
        }
        if let status, status.interval < 0 {
            throw SinkError(sink: name, message: "status interval \(status.interval) s is negative")
        }
        // MQTT's largest packet: a remaining length of 268435455 bytes and a 5-byte fixed header.
        let largestPacket = 268_435_460
        let largestBound = largestPacket - Self.packetHeadroom
        guard (1...largestBound).contains(maximumFenceSetBytes) else {
            throw SinkError(
                sink: name, message: "the fence-set bound \(maximumFenceSetBytes) is not from 1 to \(largestBound) bytes")
        }
        self.name = name
        self.address = address
        self.clientID = clientID
        self.publishTimeout = publishTimeout
        self.security = security
        self.format = format
        self.status = status
        SystemCalls.ignoreBrokenPipeSignal()
        connection = try MQTTConnection(
            address: address, security: security, password: password, clientID: clientID, keepAlive: keepAlive,
            reconnectDelay: reconnectDelay, sinkName: name, status: status,
            maximumPacketSize: UInt32(maximumFenceSetBytes + Self.packetHeadroom))
    }

    deinit {
        close()
    }

    public func deliver(_ event: EventRecord) throws(SinkError) {
        guard let message = format.message(for: event, topics: address.topics) else {
            unpublished.withLock { $0 += 1 }
            return
        }
        let deadline = ContinuousClock.now + .seconds(publishTimeout)
        switch connection.publish(Array(message.payload.utf8), to: message.topic, until: deadline) {
        case .success: return
        case .failure(let failure):
            let reason: String
            switch failure {
            case .closing: throw SinkError(sink: name, message: "the sink is closed")
            case .notConnected(let why): reason = "not connected (\(why))"
            case .notConnectedInTime: reason = "not connected within \(publishTimeout) s"
            case .publishFailed(let why): reason = "mosquitto_publish failed: \(why)"
            case .connectionLost(let why): reason = "no PUBACK: \(why)"
            case .noAcknowledgement: reason = "no PUBACK within \(publishTimeout) s"
            case .refused(let why):
                let topic = PrintableText.escaped(message.topic)
                reason = "the broker refused it: \(why); may this user publish to \"\(topic)\"? (its ACL)"
            }
            throw SinkError(sink: name, message: "event #\(event.sequence) not delivered: \(reason)", state: reason)
        }
    }

    /// Called on the sink's network thread with the payload of each message on `BASE/fences` (at most
    /// `maximumFenceSetBytes` plus `packetHeadroom` bytes); it must return quickly (hand the work to another
    /// thread). While it is set, `BASE/fences` is subscribed with QoS 1 at every connection, so the broker's
    /// retained set arrives at each (re)connection; set while connected, the subscription follows at once.
    public var onFenceSetMessage: (@Sendable ([UInt8]) -> Void)? {
        get { connection.onFenceSetMessage }
        set { connection.onFenceSetMessage = newValue }
    }

    /// Publishes `json`, the answer to a fence set, on `BASE/fences/ack` (QoS 1, not retained) without waiting for
    /// the broker. Returns false when it could not be handed to libmosquitto (not connected: the retained set
    /// arrives again at the next connection, and is answered again).
    @discardableResult
    public func publishAck(_ json: String) -> Bool {
        connection.publishWithoutWaiting(Array(json.utf8), to: address.topics.fenceAcks, retain: false)
    }

    /// Publishes `json` on `BASE/status` (retained, QoS 1) without waiting for the broker: the status changed.
    /// Returns false when it could not be handed to libmosquitto (the next connection publishes the status anyway).
    @discardableResult
    public func publishStatus(_ json: String) -> Bool {
        connection.publishWithoutWaiting(Array(json.utf8), to: address.topics.status, retain: true)
    }

    /// Publishes `json` on `BASE/status` (retained, QoS 1) and waits for the broker's PUBACK, at most
    /// `publishTimeout` seconds. Returns whether the broker took it.
    @discardableResult
    private func publishStatusAndWait(_ json: String) -> Bool {
        let deadline = ContinuousClock.now + .seconds(publishTimeout)
        return (try? connection.publish(
            Array(json.utf8), to: address.topics.status, retain: true, until: deadline).get()) != nil
    }

    /// Reads the TLS files and the password file again at the next connection attempt (SIGHUP: certificates
    /// replaced, the password changed). A connection that is up stays up. Callable from any thread.
    public func reload() {
        connection.reload()
    }

    /// The daemon is stopping and a delivery is stuck: hands the offline status to libmosquitto without waiting
    /// (it goes out before the DISCONNECT if the connection still carries anything; if not, the broker publishes
    /// the Last Will once the socket is gone) and closes the sink at once, which wakes a `deliver` waiting for its
    /// PUBACK.
    public func interrupt() {
        if let status {
            connection.endStatusReports()
            publishStatus(status.report(false))
        }
        connection.close()
    }

    /// With `status`, while connected: publishes the offline status (waiting for the PUBACK, at most
    /// `publishTimeout` seconds), since the clean DISCONNECT that follows tells the broker not to publish the Last
    /// Will. Then disconnects, ends the network thread and frees the client. Idempotent; wakes a `deliver` that is
    /// waiting.
    public func close() {
        if let status, connection.session.isConnected {
            connection.endStatusReports()
            publishStatusAndWait(status.report(false))
        }
        connection.close()
    }
}
#endif
