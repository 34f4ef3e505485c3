#if MQTT
import CMosquitto
import Foundation
import GeofencingEvents

/// One libmosquitto client and the thread that keeps it connected.
///
/// Why not `mosquitto_loop_start` with `mosquitto_reconnect_delay_set`: libmosquitto 2.0's loop thread ends for
/// good when the first connection attempt fails (a daemon started before its broker would never connect) and after
/// "fatal" errors such as a failed name lookup (a vehicle whose network comes up after the daemon). This thread
/// runs the network loop itself (`MQTTNetworkTurn`: poll(2), where `mosquitto_loop`'s select(2) has a descriptor
/// bound) and reconnects after every failure, waiting `reconnectDelay.lowerBound` seconds,
/// doubling up to the upper bound, back to the lower bound after a connection that the broker accepted.
///
/// MQTT 5, for its PUBACK reason codes (a publish the broker's ACL denies is refused, not silently dropped). Over
/// mqtts:// the client speaks TLS 1.2 or later, verifies the broker's certificate against the CA file (or the
/// system's store) and checks that it names the host of the URL. After `reload()` the next connection attempt
/// starts from a new client, with the files read again (certificates replaced, a new password).
///
/// The unit's link over the same connection (one client id, so one Last Will): with a `status`, the offline status
/// is the Last Will, set before each connection attempt, and the online status is published (retained) after each
/// CONNACK and every `status.interval` seconds. With a fence-set handler, `BASE/fences` is subscribed (QoS 1) after
/// each CONNACK (clean session: the broker then sends its retained set again) and each message on it is handed to
/// the handler on this thread. The CONNECT asks the broker for packets of at most `maximumPacketSize` bytes: a
/// broker drops a larger message for this client rather than send it (mosquitto logs "Dropping too large
/// outgoing PUBLISH"), so no message larger than that is ever read into memory.
///
/// The thread holds this object (not the sink), so a sink that is released closes its connection.
final class MQTTConnection: @unchecked Sendable {
    let address: MQTTAddress
    let topics: MQTTTopics
    let session = MQTTSession()
    private let status: MQTTStatusReporting?
    /// MQTT 5's Maximum Packet Size in the CONNECT.
    let maximumPacketSize: UInt32
    /// The fence-set handler; under `clientLock`.
    private var fenceSetHandler: (@Sendable ([UInt8]) -> Void)?
    /// Set under `clientLock` by `close()` once the client is destroyed: nothing may use it after.
    private var clientDestroyed = false
    /// Set under `clientLock` by `endStatusReports()`: the online status is published no more.
    private var statusReportsEnded = false
    private let clientID: String
    private let security: MQTTSecurity
    private let sinkName: String
    /// `struct mosquitto *`; used by the network thread and by `publish`, thread-safe in threaded mode. Replaced
    /// only by the network thread, between connection attempts, under `clientLock` (which `publish` and `close`
    /// hold to use it); destroyed by `close()` after the thread has ended.
    private var client: OpaquePointer
    private let clientLock = NSLock()
    private let keepAlive: Int32
    private let reconnectDelay: ClosedRange<Int>
    /// Signalled by the network thread as it ends.
    private let finished = DispatchSemaphore(value: 0)
    private let lifecycle = MonotonicCondition()
    private var closed = false  // guarded by lifecycle
    /// The network thread's wait; woken by the other threads after they queue a packet.
    private let networkTurn: MQTTNetworkTurn

    /// Makes the client and starts the network thread, which connects in the background.
    init(
        address: MQTTAddress, security: MQTTSecurity, password: String?, clientID: String, keepAlive: Int,
        reconnectDelay: ClosedRange<Int>, sinkName: String, status: MQTTStatusReporting?, maximumPacketSize: UInt32
    ) throws(SinkError) {
        Self.initializeLibrary()
        self.address = address
        topics = address.topics
        self.status = status
        self.maximumPacketSize = maximumPacketSize
        self.security = security
        self.clientID = clientID
        self.sinkName = sinkName
        self.keepAlive = Int32(keepAlive)
        self.reconnectDelay = reconnectDelay
        networkTurn = try MQTTNetworkTurn(sinkName: sinkName)
        client = try Self.makeClient(
            clientID: clientID, address: address, security: security, password: password, session: session,
            sinkName: sinkName, maximumPacketSize: maximumPacketSize)
        let thread = Thread { [self] in run() }
        thread.name = "mqtt \(address)"
        thread.start()
    }

    /// Publishes `payload` to `topic` with QoS 1 and waits for its PUBACK until `deadline`.
    func publish(
        _ payload: [UInt8], to topic: String, retain: Bool = false, until deadline: ContinuousClock.Instant
    ) -> Result<Void, PublishFailure> {
        lifecycle.withLock {
            guard !closed else { return .failure(.closing) }
            switch session.waitUntilConnected(until: deadline) {
            case .done: break
            case .disconnected(let reason): return .failure(.notConnected(reason))
            case .timedOut: return .failure(.notConnectedInTime)
            case .closing: return .failure(.closing)
            case .refused(let reason): return .failure(.notConnected(reason))
            }
            session.expectAcknowledgement()
            var messageID: Int32 = 0
            let published = clientLock.withLock {
                mosquitto_publish(client, &messageID, topic, Int32(payload.count), payload, 1, retain)
            }
            networkTurn.wake()
            guard published == MOSQ_ERR_SUCCESS.rawValue else {
                return .failure(.publishFailed(Self.describe(published)))
            }
            switch session.waitForAcknowledgement(of: messageID, until: deadline) {
            case .done: return .success(())
            case .disconnected(let reason): return .failure(.connectionLost(reason))
            case .timedOut: return .failure(.noAcknowledgement)
            case .closing: return .failure(.closing)
            case .refused(let reason): return .failure(.refused(reason))
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
        /// The broker's PUBACK refused the message: the reason.
        case refused(String)
    }

    /// Hands `payload` to libmosquitto for `topic` with QoS 1 without waiting for the PUBACK (libmosquitto sends it
    /// again after a reconnection if it was in flight). Returns false when libmosquitto did not take it (not
    /// connected, closed).
    @discardableResult
    func publishWithoutWaiting(_ payload: [UInt8], to topic: String, retain: Bool) -> Bool {
        let taken = clientLock.withLock {
            guard !clientDestroyed else { return false }
            return mosquitto_publish(client, nil, topic, Int32(payload.count), payload, 1, retain)
                == MOSQ_ERR_SUCCESS.rawValue
        }
        networkTurn.wake()
        return taken
    }

    /// The handler of messages on `BASE/fences`; the subscription follows at the next turn of the network loop.
    var onFenceSetMessage: (@Sendable ([UInt8]) -> Void)? {
        get { clientLock.withLock { fenceSetHandler } }
        set { clientLock.withLock { fenceSetHandler = newValue } }
    }

    /// Reads the files again at the next connection attempt (SIGHUP); the connection up now, if any, stays.
    func reload() {
        session.requestReload()
    }

    /// Ends the network thread (woken at once; at worst one turn's timeout, 0.5 s, later), then frees the client.
    /// Idempotent.
    func close() {
        session.close()
        lifecycle.withLock {
            guard !closed else { return }
            closed = true
            _ = clientLock.withLock { mosquitto_disconnect(client) }  // queues a DISCONNECT if connected
            networkTurn.wake()
            finished.wait()
            clientLock.withLock {
                clientDestroyed = true
                mosquitto_destroy(client)
            }
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
        var reloadPending = false
        while !session.isClosing {
            // A reload whose files cannot be read (a key being replaced) is tried again before each attempt.
            if session.takeReloadRequest() { reloadPending = true }
            if reloadPending {
                do throws(SinkError) {
                    try replaceClient()
                    reloadPending = false
                    firstAttempt = true
                } catch {
                    session.connectFailed(error.message)
                    session.pause(.seconds(delay))
                    delay = min(delay * 2, reconnectDelay.upperBound)
                    continue
                }
            }
            session.attemptStarting()
            if let status {
                // The offline status with what is known now; the broker keeps it for this connection.
                let will = Array(status.report(false).utf8)
                _ = mosquitto_will_set(client, topics.status, Int32(will.count), will, 1, true)
            }
            let started =
                firstAttempt
                ? mosquitto_connect_async(client, address.host, Int32(address.port), keepAlive)
                : mosquitto_reconnect_async(client)
            firstAttempt = false
            if started == MOSQ_ERR_SUCCESS.rawValue {
                var result: Int32
                var link = LinkState()
                repeat {
                    result = networkTurn.run(client, timeoutMilliseconds: Self.loopTimeoutMilliseconds)
                    serveLink(&link)
                } while result == MOSQ_ERR_SUCCESS.rawValue && !session.isClosing
                if session.isClosing { disconnectCleanly() }
                // A broker that wants a client certificate refuses after the TLS 1.3 handshake: OpenSSL's alert
                // is logged, and libmosquitto returns a lost connection.
                let tlsFailed = result == MOSQ_ERR_TLS.rawValue || !session.tlsErrorLines.isEmpty
                let lostMidway =
                    result == MOSQ_ERR_CONN_LOST.rawValue || result == MOSQ_ERR_PROTOCOL.rawValue
                    || (result == MOSQ_ERR_ERRNO.rawValue && errno == EPROTO)
                let closedDuringHandshake = !tlsFailed && address.usesTLS && !session.wasAccepted && lostMidway
                let reason: String
                if tlsFailed {
                    reason = cannotConnect(describeTLSFailure())
                } else if closedDuringHandshake {
                    // The same without an error line: what a broker that requires a client certificate does to a
                    // client without one when OpenSSL's alert did not reach the log.
                    reason = cannotConnect(
                        "TLS: the broker closed the connection before accepting it (\(Self.describe(result))); "
                            + "does it want a client certificate it accepts?")
                } else {
                    reason = "connection lost: \(Self.describe(result))"
                }
                if session.connectionEnded(reason, decisive: tlsFailed || closedDuringHandshake) {
                    delay = reconnectDelay.lowerBound
                }
            } else {
                session.connectFailed(
                    cannotConnect(started == MOSQ_ERR_TLS.rawValue ? describeTLSFailure() : Self.describe(started)))
            }
            if session.isClosing { break }
            session.pause(.seconds(delay))
            delay = min(delay * 2, reconnectDelay.upperBound)
        }
    }

    /// What the network thread knows of the link during one connection.
    private struct LinkState {
        var subscribed = false
        var nextStatus: ContinuousClock.Instant?
    }

    /// After each turn of the network loop: after a CONNACK, the online status; while connected, the periodic
    /// status and the subscription to `BASE/fences` once there is a handler; the messages received, to the handler.
    private func serveLink(_ link: inout LinkState) {
        if session.takeAcceptance() {
            link = LinkState()
            publishStatusNow(&link)
        }
        let handler = onFenceSetMessage
        if session.isConnected {
            if let interval = status?.interval, interval > 0, let next = link.nextStatus, ContinuousClock.now >= next {
                publishStatusNow(&link)
            }
            if handler != nil && !link.subscribed {
                link.subscribed = mosquitto_subscribe(client, nil, topics.fences, 1) == MOSQ_ERR_SUCCESS.rawValue
            }
        }
        for message in session.takeReceivedMessages() where message.topic == topics.fences {
            handler?(message.payload)
        }
    }

    private func publishStatusNow(_ link: inout LinkState) {
        guard let status else { return }
        let report = Array(status.report(true).utf8)
        clientLock.withLock {
            guard !statusReportsEnded else { return }
            _ = mosquitto_publish(client, nil, topics.status, Int32(report.count), report, 1, true)
        }
        if status.interval > 0 { link.nextStatus = ContinuousClock.now + .seconds(status.interval) }
    }

    /// The sink is about to publish its offline status: no online report may follow it (a periodic one handed to
    /// libmosquitto after it would be the retained status once the sink is gone). Under `clientLock`, as the
    /// network thread's check and publish, so that a report either went out before this or never does.
    func endStatusReports() {
        clientLock.withLock { statusReportsEnded = true }
    }

    /// The sink is closing: a DISCONNECT (so the broker does not publish the Last Will) written before the thread
    /// ends, whether or not `close()`'s own DISCONNECT got out first (a few short turns of the loop at most).
    private func disconnectCleanly() {
        guard mosquitto_disconnect(client) == MOSQ_ERR_SUCCESS.rawValue else { return }
        for _ in 0..<10 where networkTurn.run(client, timeoutMilliseconds: 100) == MOSQ_ERR_SUCCESS.rawValue {}
    }

    private func cannotConnect(_ reason: String) -> String {
        "cannot connect to \(address.host) port \(address.port): \(reason)"
    }

    /// Why the TLS handshake failed, from the error lines libmosquitto logged (OpenSSL's reasons): the broker's
    /// certificate does not name the host, or it could not be verified (OpenSSL's "certificate verify failed"
    /// covers a CA other than ours, an expired certificate and one not yet valid alike), or what OpenSSL said.
    private func describeTLSFailure() -> String {
        let lines = session.tlsErrorLines
        if lines.contains(where: { $0.contains("host name verification failed") }) {
            return "TLS: the broker's certificate is not for \"\(PrintableText.escaped(address.host))\" "
                + "(host name verification failed)"
        }
        // "OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed": the text after the last ":".
        let reasons = lines.filter { $0.hasPrefix("OpenSSL Error") }.map { line in
            String(line[(line.lastIndex(of: ":").map { line.index(after: $0) } ?? line.startIndex)...])
        }
        if reasons.contains("certificate verify failed") {
            let authority =
                security.caFile.map { "the CA in \"\(PrintableText.escaped($0))\"" } ?? "the system's CA certificates"
            return "TLS: the broker's certificate was not accepted (certificate verify failed): it is not signed "
                + "by \(authority), or it has expired, or it is not yet valid"
        }
        if reasons.isEmpty { return "TLS: \(Self.describe(MOSQ_ERR_TLS.rawValue))" }
        return "TLS: " + reasons.map { PrintableText.escaped($0) }.joined(separator: "; ")
    }

    /// A new client with the files read again, in place of the current one (which has no connection: the loop
    /// has ended).
    private func replaceClient() throws(SinkError) {
        let password = try security.load(sink: sinkName)
        let replacement = try Self.makeClient(
            clientID: clientID, address: address, security: security, password: password, session: session,
            sinkName: sinkName, maximumPacketSize: maximumPacketSize)
        let old = clientLock.withLock {
            defer { client = replacement }
            return client
        }
        mosquitto_destroy(old)
    }

    /// A libmosquitto client for `address`: MQTT 5, threaded, the session's callbacks, TLS and credentials.
    private static func makeClient(
        clientID: String, address: MQTTAddress, security: MQTTSecurity, password: String?, session: MQTTSession,
        sinkName: String, maximumPacketSize: UInt32
    ) throws(SinkError) -> OpaquePointer {
        guard let client = mosquitto_new(clientID, true, Unmanaged.passUnretained(session).toOpaque()) else {
            throw SinkError(
                sink: sinkName,
                message: "cannot make an MQTT client \(JSONText.quoted(clientID)): \(SystemCalls.describe(errno))")
        }
        func check(_ result: Int32, _ what: String) throws(SinkError) {
            guard result != MOSQ_ERR_SUCCESS.rawValue else { return }
            mosquitto_destroy(client)
            throw SinkError(sink: sinkName, message: "\(what): \(describe(result))")
        }
        // Threaded: publish is called from the daemon's thread while this one loops; libmosquitto then locks and
        // wakes the loop for new packets.
        _ = mosquitto_threaded_set(client, true)
        try check(
            mosquitto_int_option(client, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5), "cannot select MQTT 5")
        session.install(on: client)
        try check(
            storeConnectProperties(client, address: address, maximumPacketSize: maximumPacketSize),
            "cannot set the maximum packet size")
        if address.usesTLS {
            if let caFile = security.caFile {
                try check(
                    mosquitto_tls_set(client, caFile, nil, security.certificateFile, security.keyFile, nil),
                    "cannot use the CA file, client certificate or key")
            } else {
                try check(
                    mosquitto_int_option(client, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "cannot use the system's CA store")
                // mosquitto_tls_set wants a CA file or directory with a client certificate: the system's directory.
                if let certificateFile = security.certificateFile {
                    try check(
                        mosquitto_tls_set(client, nil, systemCertificateDirectory, certificateFile, security.keyFile, nil),
                        "cannot use the client certificate or key")
                }
            }
            // SSL_VERIFY_PEER; TLS 1.2 or later; the broker's certificate must name the URL's host.
            try check(mosquitto_tls_opts_set(client, 1, "tlsv1.2", nil), "cannot set the TLS options")
            try check(mosquitto_tls_insecure_set(client, false), "cannot turn host name checking on")
        }
        if let user = security.user {
            try check(mosquitto_username_pw_set(client, user, password), "cannot set the user name and password")
        }
        return client
    }

    /// Gives `client` the CONNECT property Maximum Packet Size for all its connections, returning MOSQ_ERR_SUCCESS.
    ///
    /// libmosquitto 2.0 takes CONNECT properties only through mosquitto_connect_bind_v5, which connects blocking (a
    /// broker address that drops SYNs would hold this thread, and a stop, for minutes), and then sends them in every
    /// CONNECT of the client, mosquitto_reconnect_async's included. It keeps them before it checks its other
    /// arguments: called with a keep-alive it refuses (below 5 s, MOSQ_ERR_INVAL), it stores the properties and
    /// connects nowhere. (A test checks that a broker then drops an oversized message for this client.)
    private static func storeConnectProperties(
        _ client: OpaquePointer, address: MQTTAddress, maximumPacketSize: UInt32
    ) -> Int32 {
        var properties: OpaquePointer?
        let added = mosquitto_property_add_int32(
            &properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), maximumPacketSize)
        defer { mosquitto_property_free_all(&properties) }
        guard added == MOSQ_ERR_SUCCESS.rawValue else { return added }
        let refusedKeepAlive: Int32 = 1
        let stored = mosquitto_connect_bind_v5(
            client, address.host, Int32(address.port), refusedKeepAlive, nil, properties)
        return stored == MOSQ_ERR_INVAL.rawValue ? MOSQ_ERR_SUCCESS.rawValue : stored
    }

    /// Where Debian (and most distributions) keep the system's CA certificates, hashed for OpenSSL.
    private static let systemCertificateDirectory = "/etc/ssl/certs"

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
