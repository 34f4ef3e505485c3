#if MQTT
import CMosquitto
import Foundation
import GeofencingEvents

/// One libmosquitto client and the thread that keeps it connected.
///
/// Why not `mosquitto_loop_start` with `mosquitto_reconnect_delay_set`: libmosquitto 2.0's loop thread ends for
/// good when the first connection attempt fails (a daemon started before its broker would never connect) and after
/// "fatal" errors such as a failed name lookup (a vehicle whose network comes up after the daemon). This thread
/// runs `mosquitto_loop` itself and reconnects after every failure, waiting `reconnectDelay.lowerBound` seconds,
/// doubling up to the upper bound, back to the lower bound after a connection that the broker accepted.
///
/// The thread holds this object (not the sink), so a sink that is released closes its connection.
final class MQTTConnection: @unchecked Sendable {
    let address: MQTTAddress
    let session = MQTTSession()
    /// `struct mosquitto *`; used by the network thread and by `publish`, thread-safe in threaded mode; destroyed
    /// by `close()` after the thread has ended.
    private let client: OpaquePointer
    private let keepAlive: Int32
    private let reconnectDelay: ClosedRange<Int>
    /// Signalled by the network thread as it ends.
    private let finished = DispatchSemaphore(value: 0)
    private let lifecycle = MonotonicCondition()
    private var closed = false  // guarded by lifecycle

    /// Makes the client and starts the network thread, which connects in the background.
    init(
        address: MQTTAddress, clientID: String, keepAlive: Int, reconnectDelay: ClosedRange<Int>, sinkName: String
    ) throws(SinkError) {
        Self.initializeLibrary()
        guard let client = mosquitto_new(clientID, true, Unmanaged.passUnretained(session).toOpaque()) else {
            throw SinkError(
                sink: sinkName,
                message: "cannot make an MQTT client \(JSONText.quoted(clientID)): \(SystemCalls.describe(errno))")
        }
        self.address = address
        self.client = client
        self.keepAlive = Int32(keepAlive)
        self.reconnectDelay = reconnectDelay
        // Threaded: publish is called from the daemon's thread while this one loops; libmosquitto then locks and
        // wakes the loop for new packets.
        _ = mosquitto_threaded_set(client, true)
        session.install(on: client)
        let thread = Thread { [self] in run() }
        thread.name = "mqtt \(address)"
        thread.start()
    }

    /// Publishes `payload` with QoS 1 and waits for its PUBACK until `deadline`.
    func publish(_ payload: [UInt8], until deadline: ContinuousClock.Instant) -> Result<Void, PublishFailure> {
        lifecycle.withLock {
            guard !closed else { return .failure(.closing) }
            switch session.waitUntilConnected(until: deadline) {
            case .done: break
            case .disconnected(let reason): return .failure(.notConnected(reason))
            case .timedOut: return .failure(.notConnectedInTime)
            case .closing: return .failure(.closing)
            }
            session.expectAcknowledgement()
            var messageID: Int32 = 0
            let published = mosquitto_publish(
                client, &messageID, address.topic, Int32(payload.count), payload, 1, false)
            guard published == MOSQ_ERR_SUCCESS.rawValue else {
                return .failure(.publishFailed(Self.describe(published)))
            }
            switch session.waitForAcknowledgement(of: messageID, until: deadline) {
            case .done: return .success(())
            case .disconnected(let reason): return .failure(.connectionLost(reason))
            case .timedOut: return .failure(.noAcknowledgement)
            case .closing: return .failure(.closing)
            }
        }
    }

    enum PublishFailure: Error, Equatable {
        case closing
        case notConnected(String)
        case notConnectedInTime
        case publishFailed(String)
        case connectionLost(String)
        case noAcknowledgement
    }

    /// Ends the network thread (at most one `mosquitto_loop` timeout, 0.5 s, later), then frees the client.
    /// Idempotent.
    func close() {
        session.close()
        lifecycle.withLock {
            guard !closed else { return }
            closed = true
            _ = mosquitto_disconnect(client)  // sends DISCONNECT if connected, and wakes the loop
            finished.wait()
            mosquitto_destroy(client)
        }
    }

    deinit {
        close()
    }

    // MARK: - The network thread

    private static let loopTimeoutMilliseconds: Int32 = 500

    private func run() {
        defer { finished.signal() }
        var delay = reconnectDelay.lowerBound
        var firstAttempt = true
        while !session.isClosing {
            let started =
                firstAttempt
                ? mosquitto_connect_async(client, address.host, Int32(address.port), keepAlive)
                : mosquitto_reconnect_async(client)
            firstAttempt = false
            if started == MOSQ_ERR_SUCCESS.rawValue {
                var result: Int32
                repeat {
                    result = mosquitto_loop(client, Self.loopTimeoutMilliseconds, 1)
                } while result == MOSQ_ERR_SUCCESS.rawValue && !session.isClosing
                if session.connectionEnded("connection lost: \(Self.describe(result))") {
                    delay = reconnectDelay.lowerBound
                }
            } else {
                session.connectFailed(
                    "cannot connect to \(address.host) port \(address.port): \(Self.describe(started))")
            }
            if session.isClosing { break }
            session.pause(.seconds(delay))
            delay = min(delay * 2, reconnectDelay.upperBound)
        }
    }

    /// libmosquitto's text for its error codes; for MOSQ_ERR_ERRNO the system's for errno.
    static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return SystemCalls.describe(errno) }
        return String(cString: mosquitto_strerror(code))
    }

    /// mosquitto_lib_init, once per process (it is not thread-safe, and never undone: other clients may live on).
    private static func initializeLibrary() {
        _ = libraryInitialized
    }
}

private let libraryInitialized: Void = {
    _ = mosquitto_lib_init()
}()
#endif
