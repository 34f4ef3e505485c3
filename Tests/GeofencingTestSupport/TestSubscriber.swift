#if MQTT
import CMosquitto
import Foundation
import Geofencing
import GeofencingSinks

/// An MQTT subscriber for tests, on libmosquitto: subscribes to one topic with QoS 1 (again after each reconnect:
/// clean session) and keeps every payload that arrives, in order; it can publish too.
///
/// Its network thread turns the sinks' poll(2) loop, not `mosquitto_loop_start`: the test process may hold more
/// than 1,024 descriptors while other suites run, and libmosquitto's select(2) loop then ends for good at once.
/// Reconnects every second after the broker goes away (the tests stop and restart brokers).
public final class TestSubscriber: @unchecked Sendable {
    private let client: OpaquePointer
    private let state = State()
    private let networkTurn: MQTTNetworkTurn
    private let stopping = Locked(false)
    /// Signalled by the network thread as it ends.
    private let finished = DispatchSemaphore(value: 0)

    /// Written by libmosquitto's network thread, read by the test.
    private final class State: Sendable {
        let topic = Locked("")
        let messages = Locked<[String]>([])
        /// SUBACKs received: one per (re)connection.
        let subscriptions = Locked(0)
    }

    public init(port: UInt16, topic: String) throws {
        _ = libraryInitialized
        state.topic.withLock { $0 = topic }
        guard let client = mosquitto_new("test-subscriber-\(UUID().uuidString)", true,
                                         Unmanaged.passUnretained(state).toOpaque())
        else { throw BrokerError(message: "mosquitto_new failed") }
        self.client = client
        mosquitto_connect_callback_set(client) { client, userData, code in
            guard code == 0 else { return }
            let state = Unmanaged<State>.fromOpaque(userData!).takeUnretainedValue()
            _ = mosquitto_subscribe(client, nil, state.topic.withLock { $0 }, 1)
        }
        mosquitto_subscribe_callback_set(client) { _, userData, _, _, _ in
            Unmanaged<State>.fromOpaque(userData!).takeUnretainedValue().subscriptions.withLock { $0 += 1 }
        }
        mosquitto_message_callback_set(client) { _, userData, message in
            guard let message = message?.pointee else { return }
            let payload = String(
                decoding: UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen)), as: UTF8.self)
            Unmanaged<State>.fromOpaque(userData!).takeUnretainedValue().messages.withLock { $0.append(payload) }
        }
        _ = mosquitto_threaded_set(client, true)
        do {
            networkTurn = try MQTTNetworkTurn(sinkName: "test subscriber")
        } catch {
            mosquitto_destroy(client)
            throw BrokerError(message: error.message)
        }
        let connected = mosquitto_connect(client, "127.0.0.1", Int32(port), 30)
        guard connected == MOSQ_ERR_SUCCESS.rawValue else {
            mosquitto_destroy(client)
            throw BrokerError(
                message: "subscriber cannot connect to port \(port): \(String(cString: mosquitto_strerror(connected)))")
        }
        // The thread holds what it uses, not self, so that releasing the subscriber stops it.
        let handle = ClientHandle(client: client)
        let thread = Thread { [handle, networkTurn, stopping, finished] in
            defer { finished.signal() }
            while !stopping.withLock({ $0 }) {
                if networkTurn.run(handle.client, timeoutMilliseconds: 100) == MOSQ_ERR_SUCCESS.rawValue { continue }
                for _ in 0..<20 where !stopping.withLock({ $0 }) { usleep(50_000) }
                if !stopping.withLock({ $0 }) { _ = mosquitto_reconnect(handle.client) }
            }
        }
        thread.name = "test subscriber \(topic)"
        thread.start()
    }

    deinit {
        stopping.withLock { $0 = true }
        _ = mosquitto_disconnect(client)
        networkTurn.wake()
        finished.wait()
        mosquitto_destroy(client)
    }

    /// Publishes `payload` to `topic` with QoS 1 (as the fleet's back-end would); true once libmosquitto took it.
    @discardableResult
    public func publish(_ payload: [UInt8], to topic: String, retain: Bool) -> Bool {
        let taken =
            mosquitto_publish(client, nil, topic, Int32(payload.count), payload, 1, retain) == MOSQ_ERR_SUCCESS.rawValue
        networkTurn.wake()
        return taken
    }

    public var messages: [String] { state.messages.withLock { $0 } }
    public var subscriptions: Int { state.subscriptions.withLock { $0 } }

    /// Waits, polling every 10 ms, until `condition` holds; false after `timeout`.
    public func wait(timeout: Duration, until condition: (TestSubscriber) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(self)
    }
}

/// The client for the network thread: libmosquitto in threaded mode may be used from several threads; the
/// subscriber destroys it only after the thread has ended.
private struct ClientHandle: @unchecked Sendable {
    let client: OpaquePointer
}

/// mosquitto_lib_init once for the test process (MQTTSink does the same for itself; a second call only counts).
private let libraryInitialized: Void = {
    _ = mosquitto_lib_init()
}()
#endif
