#if MQTT
import Foundation
import GeofencingEvents
import Testing
import GeofencingTestSupport

@testable import GeofencingSinks

/// MQTTSink over mqtts:// against a real mosquitto with a TLS listener, users and an ACL; certificates made by
/// openssl for each test. What the broker takes is read by a subscriber on its plain listener.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled && TestCertificates.isInstalled,
                             "needs mosquitto and openssl (Debian packages mosquitto, openssl)"))
struct MQTTSinkTLSTests {
    /// The sink's base topic (the URL's path); the events go to `topic` under it.
    static let base = "fleet/7"
    static let topic = "fleet/7/events"
    static let password = FleetBrokerSetup.password

    typealias Setup = FleetBrokerSetup

    static func sink(_ broker: MosquittoBroker, _ security: MQTTSecurity, host: String = "127.0.0.1") throws -> MQTTSink {
        try MQTTSink(url: "mqtts://\(host):\(broker.securePort)/\(base)", security: security,
                     clientID: "sink-\(UUID().uuidString)", publishTimeout: 5, reconnectDelay: 1...1)
    }


    /// Retries `event` as the daemon does (with a short wait) until the sink takes it; nil once it has, else the
    /// last error when `deadline` (a safety net) passes.
    static func deliverEventually(_ sink: MQTTSink, _ event: EventRecord, within timeout: Duration = .seconds(20))
        async -> SinkError?
    {
        let deadline = ContinuousClock.now + timeout
        while true {
            do throws(SinkError) {
                try sink.deliver(event)
                return nil
            } catch {
                if ContinuousClock.now > deadline { return error }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Once fixed: `event`, retried as the daemon would, is taken by the sink and is all the subscriber receives.
    static func expectDelivered(
        _ event: EventRecord, by sink: MQTTSink, to subscriber: TestSubscriber, log: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let failure = await deliverEventually(sink, event)
        #expect(failure == nil, "\(String(describing: failure)) \(log)", sourceLocation: sourceLocation)
        #expect(await subscriber.wait(timeout: .seconds(60)) { !$0.messages.isEmpty }, sourceLocation: sourceLocation)
        #expect(subscriber.messages == [event.jsonLine], sourceLocation: sourceLocation)
    }

    @Test func deliversOverTLSInOrder() async throws {
        let setup = try Setup()
        let (broker, subscriber) = try await FleetBrokerSetup.startBroker(setup.listener(), subscribingTo: Self.topic)
        defer { broker.kill() }
        let sink = try Self.sink(broker, setup.security())
        defer { sink.close() }
        #expect(sink.name == "mqtts:127.0.0.1:\(broker.securePort)/\(Self.base)")
        let events = SampleEvents.burst(30)
        for event in events { try sink.deliver(event) }
        #expect(await subscriber.wait(timeout: .seconds(60)) { $0.messages.count >= events.count })
        #expect(subscriber.messages == events.map(\.jsonLine))
    }

    /// Mutual TLS: without a client certificate the broker refuses the handshake; with one signed by its CA the
    /// events go through.
    @Test func mutualTLSNeedsTheClientCertificate() async throws {
        let setup = try Setup()
        let client = try setup.pki.issue("client", commonName: "vehicle-7", alternativeNames: "DNS:vehicle-7")
        let (broker, subscriber) = try await FleetBrokerSetup.startBroker(
            setup.listener(mutual: true), subscribingTo: Self.topic)
        defer { broker.kill() }

        let withoutCertificate = try Self.sink(broker, setup.security())
        let refused = try #require(throws: SinkError.self) { try withoutCertificate.deliver(SampleEvents.event(1)) }
        withoutCertificate.close()
        #expect(refused.message.contains("not connected (cannot connect to 127.0.0.1 port \(broker.securePort): TLS: "),
                "\(refused)")
        // OpenSSL's alert when libmosquitto logged it, else what the closed connection implies.
        #expect(refused.message.contains("TLS: tlsv13 alert certificate required")
                    || refused.message.contains("closed the connection before accepting it"), "\(refused)")
        print("mutual TLS without a client certificate: \(refused)")

        var security = setup.security()
        security.certificateFile = client.certificate
        security.keyFile = client.key
        let sink = try Self.sink(broker, security)
        defer { sink.close() }
        let events = SampleEvents.burst(5)
        for event in events { try sink.deliver(event) }
        #expect(await subscriber.wait(timeout: .seconds(60)) { $0.messages.count >= events.count })
        #expect(subscriber.messages == events.map(\.jsonLine))
    }

    /// Each certificate the sink must not accept is named as such; the event stays with the caller, and once the
    /// broker has a good certificate (restarted with it) the retried event arrives.
    @Test(arguments: ["another CA", "another name", "expired", "not yet valid"])
    func refusedCertificatesAreNamedAndRecovered(problem: String) async throws {
        let setup = try Setup()
        var caFile = setup.pki.caCertificate
        var presented = setup.server
        let expected: String
        switch problem {
        case "another CA":
            caFile = setup.pki.file("trusted.crt")
            try FileManager.default.copyItem(atPath: setup.pki.otherCACertificate, toPath: caFile)
            expected = "certificate verify failed"
        case "another name":
            presented = try setup.pki.issue("elsewhere", commonName: "broker.example",
                                            alternativeNames: "DNS:broker.example")
            expected = "is not for \"127.0.0.1\" (host name verification failed)"
        case "expired":
            presented = try setup.pki.issue("expired", commonName: "localhost",
                                            alternativeNames: "DNS:localhost,IP:127.0.0.1",
                                            notBefore: "20200101000000Z", notAfter: "20200102000000Z")
            expected = "certificate verify failed"
        default:
            presented = try setup.pki.issue("future", commonName: "localhost",
                                            alternativeNames: "DNS:localhost,IP:127.0.0.1",
                                            notBefore: "20990101000000Z", notAfter: "20990102000000Z")
            expected = "certificate verify failed"
        }
        let (broker, subscriber) = try await FleetBrokerSetup.startBroker(
            setup.listener(certificate: presented), subscribingTo: Self.topic)
        defer { broker.kill() }
        let sink = try Self.sink(broker, setup.security(ca: caFile))
        defer { sink.close() }
        let event = SampleEvents.event(1)
        let error = try #require(throws: SinkError.self) { try sink.deliver(event) }
        #expect(error.message.contains("not connected (cannot connect to 127.0.0.1 port \(broker.securePort): TLS: "),
                "\(error)")
        #expect(error.message.contains(expected), "\(error)")
        #expect(error.state != nil && error.message.hasSuffix(error.state!), "\(error)")
        print("\(problem): \(error)")

        // Fixed: the trusted CA file replaced (and the sink told, as SIGHUP does), or the broker's certificate.
        if problem == "another CA" {
            try FileManager.default.removeItem(atPath: caFile)
            try FileManager.default.copyItem(atPath: setup.pki.caCertificate, toPath: caFile)
            sink.reload()
        } else {
            broker.stop()
            try broker.configure(secure: setup.listener())
            try await broker.start()
            // The subscriber back first (clean session: what the broker takes before it subscribes is not kept).
            #expect(await subscriber.wait(timeout: .seconds(15)) { $0.subscriptions >= 2 })
        }
        await Self.expectDelivered(event, by: sink, to: subscriber, log: broker.log)
    }

    /// The broker's own refusals: a wrong password (the CONNACK's reason) and a publish its ACL denies (MQTT 5's
    /// PUBACK says "not authorized", where MQTT 3.1.1 would have it acknowledged and dropped). The event stays with the
    /// caller; once fixed (a new password file and `reload()`, as SIGHUP does; the broker restarted with an ACL that
    /// allows the topic) it arrives.
    @Test(arguments: ["wrong password", "ACL denial"])
    func brokerRefusalsAreNamedAndRecovered(refusal: String) async throws {
        let setup = try Setup()
        if refusal == "wrong password" { try setup.writePassword("wrong") } else { try setup.allow("fleet/8/#") }
        let (broker, subscriber) = try await FleetBrokerSetup.startBroker(setup.listener(), subscribingTo: Self.topic)
        defer { broker.kill() }
        let sink = try Self.sink(broker, setup.security())
        defer { sink.close() }
        let event = SampleEvents.event(1)
        let error = try #require(throws: SinkError.self) { try sink.deliver(event) }
        print("\(refusal): \(error)")
        if refusal == "wrong password" {
            #expect(error.message.contains("the broker refused the connection: Not authorized"), "\(error)")
            try setup.writePassword(Self.password)
            // Without a reload the sink keeps the password it read.
            #expect(throws: SinkError.self) { try sink.deliver(event) }
            sink.reload()
        } else {
            #expect(error.message.contains("event #1 not delivered: the broker refused it: Not authorized"), "\(error)")
            #expect(error.message.contains(Self.topic), "\(error)")
            try setup.allow("fleet/7/#")
            broker.stop()
            try await broker.start()
            #expect(await subscriber.wait(timeout: .seconds(15)) { $0.subscriptions >= 2 })
        }
        await Self.expectDelivered(event, by: sink, to: subscriber)
    }

    /// The files are checked when the sink is made: readable, the key and the password file private.
    @Test func filesAreCheckedAtStart() throws {
        let setup = try Setup()
        let client = try setup.pki.issue("client", commonName: "vehicle-7", alternativeNames: "DNS:vehicle-7")
        let url = "mqtts://127.0.0.1:1/\(Self.base)"
        func refusal(_ security: MQTTSecurity, url: String = url) throws -> String {
            try #require(throws: SinkError.self) { try MQTTSink(url: url, security: security) }.message
        }
        let missing = setup.pki.file("missing.crt")
        #expect(try refusal(MQTTSecurity(caFile: missing)).contains("cannot read the CA file \"\(missing)\": "))

        _ = chmod(client.key, 0o640)
        let openKey = try refusal(MQTTSecurity(certificateFile: client.certificate, keyFile: client.key))
        #expect(openKey.contains("the client key \"\(client.key)\" (mode 0640)"), "\(openKey)")
        _ = chmod(setup.passwordFile, 0o604)
        let openPassword = try refusal(setup.security())
        #expect(openPassword.contains("the password file \"\(setup.passwordFile)\" (mode 0604)"), "\(openPassword)")

        #expect(try refusal(MQTTSecurity(certificateFile: client.certificate)).contains("without its key"))
        #expect(try refusal(MQTTSecurity(caFile: setup.pki.caCertificate), url: "mqtt://127.0.0.1/t")
            .contains("use mqtts://"))
        #expect(try refusal(MQTTSecurity(passwordFile: setup.passwordFile)).contains("without a user name"))
    }
}
extension FleetBrokerSetup {
    func security(ca: String? = nil) -> MQTTSecurity {
        MQTTSecurity(caFile: ca ?? pki.caCertificate, user: Self.user, passwordFile: passwordFile)
    }
}
#endif
