#if MQTT
import CMosquitto

/// What the network thread tells an `MQTTSink`: whether it is connected, why not, and which messages the broker
/// acknowledged. libmosquitto's callbacks and `MQTTConnection`'s loop (on that thread) write it; `deliver` (on the
/// daemon's) waits on it.
final class MQTTSession: @unchecked Sendable {
    // Everything below is guarded by `condition`'s lock.
    private let condition = MonotonicCondition()
    private var connected = false
    /// Why the sink is not connected; nil while the first connection attempt is still under way (or connected).
    private var problem: String?
    /// Message ids the broker has acknowledged (PUBACK) since `expectAcknowledgement`.
    private var acknowledged: Set<Int32> = []
    /// Message ids the broker answered with a PUBACK that refuses them (MQTT 5 reason code 0x80 or more, such as
    /// 0x87 "not authorized" for a topic its ACL denies), with the reason.
    private var refusedMessages: [Int32: String] = [:]
    /// The broker refused this connection attempt in its CONNACK: that, not the closed socket that follows, is why
    /// the sink is not connected.
    private var refusedConnection = false
    /// libmosquitto's error log lines of the current connection attempt that say why TLS failed ("OpenSSL Error[0]:
    /// ...", "Error: host name verification failed."): MOSQ_ERR_TLS alone does not.
    private var tlsErrors: [String] = []
    /// A connection attempt has begun and has not yet ended (accepted, refused or failed).
    private var attemptInProgress = true
    /// A reload (SIGHUP) asked for the files to be read again at the next connection attempt.
    private var reloadRequested = false
    private var closing = false
    /// The disconnect callback has set `problem` for the connection that is ending.
    private var disconnectReported = false
    /// A CONNACK accepted the connection since the network loop last ended.
    private var wasConnected = false
    /// A CONNACK accepted a connection since `takeAcceptance()` was last called.
    private var acceptedSinceTaken = false
    /// Messages from the broker (subscribed topics) not yet taken by the network loop, in order.
    private var received: [(topic: String, payload: [UInt8])] = []

    /// How a wait ended.
    enum Wait: Equatable {
        case done
        /// Not connected: the reason.
        case disconnected(String)
        case timedOut
        case closing
        /// The broker answered the publish with a refusal: the reason.
        case refused(String)
    }

    /// Waits until connected, until `deadline` only while a connection attempt is under way: between attempts the
    /// answer is at once "not connected", with the last one's reason, and the network thread keeps reconnecting in
    /// the background. (Waiting for the attempt under way lets a retry that comes while the broker is being
    /// reached again find it connected, rather than fail and wait out a longer backoff.)
    func waitUntilConnected(until deadline: ContinuousClock.Instant) -> Wait {
        condition.withLock {
            _ = condition.wait(until: deadline) { connected || (problem != nil && !attemptInProgress) || closing }
            if closing { return .closing }
            if connected { return .done }
            if let problem { return .disconnected(problem) }
            return .timedOut
        }
    }

    /// Forgets earlier acknowledgements before a publish: message ids wrap at 65535, and a late PUBACK for a publish
    /// that timed out must not be taken for the next one's.
    func expectAcknowledgement() {
        condition.withLock {
            acknowledged.removeAll()
            refusedMessages.removeAll()
        }
    }

    /// Waits for the PUBACK of message `id` until `deadline`; gives up early if the connection is lost (libmosquitto
    /// sends the message again after reconnecting, so it may still arrive: at least once).
    func waitForAcknowledgement(of id: Int32, until deadline: ContinuousClock.Instant) -> Wait {
        condition.withLock {
            _ = condition.wait(until: deadline) {
                acknowledged.contains(id) || refusedMessages[id] != nil || !connected || closing
            }
            if acknowledged.remove(id) != nil { return .done }
            if let reason = refusedMessages.removeValue(forKey: id) { return .refused(reason) }
            if closing { return .closing }
            if !connected { return .disconnected(problem ?? "connection lost") }
            return .timedOut
        }
    }

    /// Asks for the TLS files and the password to be read again before the next connection attempt.
    func requestReload() {
        condition.withLock {
            reloadRequested = true
            condition.broadcast()  // ends the wait before a reconnection: the new files are tried at once
        }
    }

    // MARK: - The network thread (MQTTConnection)

    /// Whether a reload was asked for since the last call.
    func takeReloadRequest() -> Bool {
        condition.withLock {
            defer { reloadRequested = false }
            return reloadRequested
        }
    }

    /// A connection attempt begins: forgets the last one's refusal and TLS errors.
    func attemptStarting() {
        condition.withLock {
            attemptInProgress = true
            refusedConnection = false
            tlsErrors.removeAll()
        }
    }

    /// A CONNACK accepted the connection since the network loop last ended.
    var wasAccepted: Bool { condition.withLock { wasConnected } }

    /// The TLS error lines libmosquitto logged during this attempt.
    var tlsErrorLines: [String] { condition.withLock { tlsErrors } }

    /// A connection attempt failed at once (connection refused, unknown host).
    func connectFailed(_ reason: String) {
        condition.withLock {
            attemptInProgress = false
            refusedConnection = false
            connected = false
            problem = reason
            condition.broadcast()
        }
    }

    /// The network loop ended for `reason`. Keeps the broker's refusal of the connection, else the reason the
    /// disconnect callback gave (if it gave one) unless `decisive` (a TLS failure, which says more).
    /// - Returns: whether the connection had been up (CONNACK accepted) since the last call.
    func connectionEnded(_ reason: String, decisive: Bool = false) -> Bool {
        condition.withLock {
            connected = false
            attemptInProgress = false
            if !refusedConnection && (decisive || !disconnectReported) { problem = reason }
            disconnectReported = false
            defer { wasConnected = false }
            condition.broadcast()
            return wasConnected
        }
    }

    /// Waits `duration` unless the sink closes or a reload is asked for first.
    func pause(_ duration: Duration) {
        condition.withLock {
            _ = condition.wait(until: .now + duration) { closing || reloadRequested }
        }
    }

    var isClosing: Bool { condition.withLock { closing } }

    var isConnected: Bool { condition.withLock { connected } }

    /// Whether a CONNACK accepted a connection since the last call.
    func takeAcceptance() -> Bool {
        condition.withLock {
            defer { acceptedSinceTaken = false }
            return acceptedSinceTaken
        }
    }

    /// The messages received since the last call, in order.
    func takeReceivedMessages() -> [(topic: String, payload: [UInt8])] {
        condition.withLock {
            defer { received.removeAll() }
            return received
        }
    }

    /// Wakes a waiting `deliver` and the network thread, which both end.
    func close() {
        condition.withLock {
            closing = true
            condition.broadcast()
        }
    }

    // MARK: - libmosquitto's callbacks (its network thread)

    /// CONNACK: `code` 0 accepted, else the broker's refusal (an MQTT 5 reason code: 0x87 "not authorized" for a
    /// user name or password, or a client certificate, it does not accept).
    fileprivate func didConnect(code: Int32) {
        condition.withLock {
            connected = code == 0
            attemptInProgress = false
            if connected {
                wasConnected = true
                acceptedSinceTaken = true
            }
            refusedConnection = code != 0
            problem = code == 0 ? nil : "the broker refused the connection: \(Self.reason(code))"
            condition.broadcast()
        }
    }

    /// "Not authorized (reason code 135)".
    static func reason(_ code: Int32) -> String {
        "\(String(cString: mosquitto_reason_string(code))) (reason code \(code))"
    }

    /// The connection ended: `code` 0 when we asked for it, else why it was lost.
    fileprivate func didDisconnect(code: Int32) {
        condition.withLock {
            connected = false
            // Before a CONNACK accepted the connection, the loop's end (`connectionEnded`, at once after this) says
            // why, with more than libmosquitto's code: a TLS failure, a broker that closed during the handshake.
            guard wasConnected else { return }
            disconnectReported = true
            if !refusedConnection {
                problem = code == 0 ? "disconnected" : "connection lost: \(String(cString: mosquitto_strerror(code)))"
            }
            condition.broadcast()
        }
    }

    /// PUBACK for message `id`: below 0x80 accepted (0x10 "no matching subscribers" too), else refused.
    fileprivate func didPublish(id: Int32, reasonCode: Int32) {
        condition.withLock {
            if reasonCode < 0x80 {
                acknowledged.insert(id)
            } else {
                refusedMessages[id] = Self.reason(reasonCode)
            }
            condition.broadcast()
        }
    }

    /// A message on a subscribed topic: kept for the network loop, which hands it on after this callback.
    fileprivate func didReceive(topic: String, payload: [UInt8]) {
        condition.withLock { received.append((topic, payload)) }
    }

    /// Keeps the error lines that explain a TLS failure (at most a few per attempt).
    fileprivate func didLog(level: Int32, line: String) {
        guard level == MOSQ_LOG_ERR, line.hasPrefix("OpenSSL Error") || line.contains("verification failed") else {
            return
        }
        condition.withLock { if tlsErrors.count < 8 { tlsErrors.append(line) } }
    }

    /// Installs the callbacks on `client`, whose user data must be this session (`Unmanaged.passUnretained`),
    /// alive until the client is destroyed.
    func install(on client: OpaquePointer) {
        mosquitto_connect_callback_set(client) { _, userData, code in
            MQTTSession.from(userData).didConnect(code: code)
        }
        mosquitto_disconnect_callback_set(client) { _, userData, code in
            MQTTSession.from(userData).didDisconnect(code: code)
        }
        // MQTT 5's PUBACK has a reason code, which tells a publish the broker's ACL denies from one it took: MQTT
        // 3.1.1's has none, and mosquitto acknowledges a denied publish there as if it had been taken.
        mosquitto_publish_v5_callback_set(client) { _, userData, id, reasonCode, _ in
            MQTTSession.from(userData).didPublish(id: id, reasonCode: reasonCode)
        }
        mosquitto_message_callback_set(client) { _, userData, message in
            guard let message = message?.pointee, let topic = message.topic else { return }
            let payload = [UInt8](
                UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen)))
            MQTTSession.from(userData).didReceive(topic: String(cString: topic), payload: payload)
        }
        mosquitto_log_callback_set(client) { _, userData, level, line in
            guard let line else { return }
            MQTTSession.from(userData).didLog(level: level, line: String(cString: line))
        }
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> MQTTSession {
        Unmanaged<MQTTSession>.fromOpaque(userData!).takeUnretainedValue()
    }
}
#endif
