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
    private var closing = false
    /// The disconnect callback has set `problem` for the connection that is ending.
    private var disconnectReported = false
    /// A CONNACK accepted the connection since the network loop last ended.
    private var wasConnected = false

    /// How a wait ended.
    enum Wait: Equatable {
        case done
        /// Not connected: the reason.
        case disconnected(String)
        case timedOut
        case closing
    }

    /// Waits until connected, until `deadline` only while the first attempt is still under way: once an attempt
    /// has failed the answer is at once "not connected", with the reason, and libmosquitto keeps reconnecting in the
    /// background.
    func waitUntilConnected(until deadline: ContinuousClock.Instant) -> Wait {
        condition.withLock {
            _ = condition.wait(until: deadline) { connected || problem != nil || closing }
            if closing { return .closing }
            if connected { return .done }
            if let problem { return .disconnected(problem) }
            return .timedOut
        }
    }

    /// Forgets earlier acknowledgements before a publish: message ids wrap at 65535, and a late PUBACK for a publish
    /// that timed out must not be taken for the next one's.
    func expectAcknowledgement() {
        condition.withLock { acknowledged.removeAll() }
    }

    /// Waits for the PUBACK of message `id` until `deadline`; gives up early if the connection is lost (libmosquitto
    /// sends the message again after reconnecting, so it may still arrive: at least once).
    func waitForAcknowledgement(of id: Int32, until deadline: ContinuousClock.Instant) -> Wait {
        condition.withLock {
            _ = condition.wait(until: deadline) { acknowledged.contains(id) || !connected || closing }
            if acknowledged.remove(id) != nil { return .done }
            if closing { return .closing }
            if !connected { return .disconnected(problem ?? "connection lost") }
            return .timedOut
        }
    }

    // MARK: - The network thread (MQTTConnection)

    /// A connection attempt failed at once (connection refused, unknown host).
    func connectFailed(_ reason: String) {
        condition.withLock {
            connected = false
            problem = reason
            condition.broadcast()
        }
    }

    /// The network loop ended for `reason`. Keeps the reason the disconnect callback gave, if it gave one.
    /// - Returns: whether the connection had been up (CONNACK accepted) since the last call.
    func connectionEnded(_ reason: String) -> Bool {
        condition.withLock {
            connected = false
            if !disconnectReported { problem = reason }
            disconnectReported = false
            defer { wasConnected = false }
            condition.broadcast()
            return wasConnected
        }
    }

    /// Waits `duration` unless the sink closes first.
    func pause(_ duration: Duration) {
        condition.withLock {
            _ = condition.wait(until: .now + duration) { closing }
        }
    }

    var isClosing: Bool { condition.withLock { closing } }

    /// Wakes a waiting `deliver` and the network thread, which both end.
    func close() {
        condition.withLock {
            closing = true
            condition.broadcast()
        }
    }

    // MARK: - libmosquitto's callbacks (its network thread)

    /// CONNACK: `code` 0 accepted, else the broker's refusal.
    fileprivate func didConnect(code: Int32) {
        condition.withLock {
            connected = code == 0
            if connected { wasConnected = true }
            problem =
                code == 0
                ? nil : "the broker refused the connection: \(String(cString: mosquitto_connack_string(code)))"
            condition.broadcast()
        }
    }

    /// The connection ended: `code` 0 when we asked for it, else why it was lost.
    fileprivate func didDisconnect(code: Int32) {
        condition.withLock {
            connected = false
            disconnectReported = true
            problem = code == 0 ? "disconnected" : "connection lost: \(String(cString: mosquitto_strerror(code)))"
            condition.broadcast()
        }
    }

    fileprivate func didPublish(id: Int32) {
        condition.withLock {
            acknowledged.insert(id)
            condition.broadcast()
        }
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
        mosquitto_publish_callback_set(client) { _, userData, id in
            MQTTSession.from(userData).didPublish(id: id)
        }
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> MQTTSession {
        Unmanaged<MQTTSession>.fromOpaque(userData!).takeUnretainedValue()
    }
}
#endif
