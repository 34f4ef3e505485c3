// Shared test support: a broker set up as a fleet's would be, for the TLS tests of the sink and of the daemon.
import Foundation
import Testing

/// A CA (made by `TestCertificates`), the broker's certificate for 127.0.0.1 and localhost, the broker's password
/// file with one user, an ACL that lets that user publish and subscribe only under fleet/7/ (its events and status,
/// its fence sets), and the client's password file.
public final class FleetBrokerSetup {
    public static let user = "vehicle-7"
    public static let password = "correct horse"

    public let pki: TestCertificates
    public let server: (certificate: String, key: String)
    public let passwordFile: String
    public let brokerPasswords: String
    public let acl: String

    public init() throws {
        pki = try TestCertificates()
        server = try pki.issue("server", commonName: "localhost", alternativeNames: "DNS:localhost,IP:127.0.0.1")
        brokerPasswords = pki.file("broker.passwd")
        try MosquittoBroker.writePasswordFile(brokerPasswords, user: FleetBrokerSetup.user,
                                              password: FleetBrokerSetup.password)
        acl = pki.file("broker.acl")
        passwordFile = pki.file("password")
        try allow("fleet/7/#")
        try writePassword(FleetBrokerSetup.password)
    }

    public func allow(_ pattern: String) throws {
        try "user \(FleetBrokerSetup.user)\ntopic readwrite \(pattern)\n".write(toFile: acl, atomically: true,
                                                                        encoding: .utf8)
    }

    public func writePassword(_ password: String) throws {
        try "\(password)\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        _ = chmod(passwordFile, 0o600)
    }

    public func listener(certificate: (certificate: String, key: String)? = nil, mutual: Bool = false)
        -> MosquittoBroker.SecureListener
    {
        let pair = certificate ?? server
        return MosquittoBroker.SecureListener(
            certificate: pair.certificate, key: pair.key, ca: pki.caCertificate, requireClientCertificate: mutual,
            passwordFile: brokerPasswords, aclFile: acl)
    }
}

#if MQTT
extension FleetBrokerSetup {
    /// A broker with `listener` beside its plain listener, started, and a subscriber to `topic` on the plain listener
    /// that has subscribed (checked). The caller kills the broker; if the subscriber cannot be made, it is killed here.
    public static func startBroker(_ listener: MosquittoBroker.SecureListener, subscribingTo topic: String)
        async throws -> (MosquittoBroker, TestSubscriber)
    {
        let broker = try MosquittoBroker(secure: listener)
        do {
            try await broker.start()
            let subscriber = try TestSubscriber(port: broker.port, topic: topic)
            #expect(await subscriber.wait(timeout: .seconds(60)) { $0.subscriptions >= 1 }, "subscribed: \(broker.log)")
            return (broker, subscriber)
        } catch {
            broker.kill()
            throw error
        }
    }
}
#endif
