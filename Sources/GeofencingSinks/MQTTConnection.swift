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
/// MQTT 5, for its PUBACK reason codes (a publish the broker's ACL denies is refused, not silently dropped). Over
/// mqtts:// the client speaks TLS 1.2 or later, verifies the broker's certificate against the CA file (or the
/// system's store) and checks that it names the host of the URL. After `reload()` the next connection attempt
/// starts from a new client, with the files read again (certificates replaced, a new password).
///
/// The thread holds this object (not the sink), so a sink that is released closes its connection.
final class MQTTConnection: @unchecked Sendable {
    let address: MQTTAddress
    let session = MQTTSession()
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

    /// Makes the client and starts the network thread, which connects in the background.
    init(
        address: MQTTAddress, security: MQTTSecurity, password: String?, clientID: String, keepAlive: Int,
        reconnectDelay: ClosedRange<Int>, sinkName: String
    ) throws(SinkError) {
        Self.initializeLibrary()
        self.address = address
        self.security = security
        self.clientID = clientID
        self.sinkName = sinkName
        self.keepAlive = Int32(keepAlive)
        self.reconnectDelay = reconnectDelay
        client = try Self.makeClient(
            clientID: clientID, address: address, security: security, password: password, session: session,
            sinkName: sinkName)
        let thread = Thread { [self] in run() }
        thread.name = "mqtt \(address)"
        thread.start()
    }

    /// Publishes `payload` to `topic` with QoS 1 and waits for its PUBACK until `deadline`.
    func publish(_ payload: [UInt8], to topic: String, until deadline: ContinuousClock.Instant) -> Result<Void, PublishFailure> {
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
                mosquitto_publish(client, &messageID, topic, Int32(payload.count), payload, 1, false)
            }
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

    /// Reads the files again at the next connection attempt (SIGHUP); the connection up now, if any, stays.
    func reload() {
        session.requestReload()
    }

    /// Ends the network thread (at most one `mosquitto_loop` timeout, 0.5 s, later), then frees the client.
    /// Idempotent.
    func close() {
        session.close()
        lifecycle.withLock {
            guard !closed else { return }
            closed = true
            _ = clientLock.withLock { mosquitto_disconnect(client) }  // sends DISCONNECT if connected, wakes the loop
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
            sinkName: sinkName)
        let old = clientLock.withLock {
            defer { client = replacement }
            return client
        }
        mosquitto_destroy(old)
    }

    /// A libmosquitto client for `address`: MQTT 5, threaded, the session's callbacks, TLS and credentials.
    private static func makeClient(
        clientID: String, address: MQTTAddress, security: MQTTSecurity, password: String?, session: MQTTSession,
        sinkName: String
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
