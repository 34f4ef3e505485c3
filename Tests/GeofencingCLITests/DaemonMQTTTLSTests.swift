#if MQTT
import Foundation
import Geofencing
import GeofencingInputs
import GeofencingWriters
import GeofencingTestSupport
import Testing

/// `geofence run --mqtt mqtts://...` against a real mosquitto with a TLS listener, users and an ACL: events arrive
/// in order over (mutual) TLS; a broker the daemon must refuse, or that refuses the daemon, is logged once, by
/// its reason, while the events stay queued, and once that is fixed they all arrive, in order.
@Suite(.serialized,
       .enabled(if: MosquittoBroker.isInstalled && TestCertificates.isInstalled && GeofenceExecutable.isBuilt,
                "needs mosquitto, openssl and the geofence executable"))
struct DaemonMQTTTLSTests {
    /// The daemon's base topic (the URL's path); the events go to `topic` under it.
    static let base = "fleet/7"
    static let topic = "fleet/7/events"
    /// 10 fences along the drive: 10 enters, 10 exits (no state event: every fence is outside at the first fix).
    static let eventCount = 20

    /// The daemon reading NMEA from a pipe, its standard output and error in files.
    final class RunningDaemon {
        let directory: URL
        let process = Process()
        let input = Pipe()

        init(mqtt arguments: [String]) throws {
            directory = try GeofenceExecutable.temporaryDirectory()
            var fences = "id,lat,lon,radius_m\n"
            for index in 0..<10 {
                let center = DaemonMQTTTests.east(150 + 100 * Double(index))
                fences += "f\(index),\(center.latitude),\(center.longitude),20\n"
            }
            try fences.write(toFile: file("fences.csv"), atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: file("stdout.jsonl"), contents: nil)
            _ = FileManager.default.createFile(atPath: file("stderr.txt"), contents: nil)
            process.executableURL = URL(fileURLWithPath: GeofenceExecutable.path)
            process.arguments = ["run", "--store", file("unit.db"), "--fences", file("fences.csv"), "--nmea", "-",
                                 "--format", "jsonl"] + arguments
            // Close-on-exec for our end: a broker started later must not inherit it (the input would never end).
            _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
            process.standardInput = input
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: file("stdout.jsonl")))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: file("stderr.txt")))
            try process.run()
        }

        deinit {
            if process.isRunning { process.terminate() }
            try? FileManager.default.removeItem(at: directory)
        }

        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

        /// Feeds the drive (1.2 km east through the 10 fences): `half` 0 or 1 of it, or all of it.
        func drive(half: Int? = nil) throws {
            let route = try SimulatedRoute(polyline: [DaemonMQTTTests.east(0), DaemonMQTTTests.east(1_200)])
            let observations = try DriveSimulator(route: route, profile: .car, errors: .perfect, seed: 3).run()
                .observations
            let middle = observations.count / 2
            let part = half.map { $0 == 0 ? observations[..<middle] : observations[middle...] } ?? observations[...]
            input.fileHandleForWriting.write(Data(NMEAWriter().log(part).utf8))
        }

        var printed: Int {
            ((try? String(contentsOfFile: file("stdout.jsonl"), encoding: .utf8)) ?? "").split(separator: "\n").count
        }
        var log: String { (try? String(contentsOfFile: file("stderr.txt"), encoding: .utf8)) ?? "" }
        func logLines(containing text: String) -> [Substring] {
            log.split(separator: "\n").filter { $0.contains(text) }
        }

        /// Waits (a safety net, polling) until `condition` holds.
        func wait(timeout: Duration = .seconds(60), until condition: () -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + timeout
            while !condition() {
                if ContinuousClock.now > deadline || !process.isRunning { return condition() }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return true
        }

        /// Ends the input: the daemon delivers what is queued and stops. Returns its exit status.
        func finish() throws -> Int32 {
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    static func mqttArguments(_ broker: MosquittoBroker, _ setup: FleetBrokerSetup) -> [String] {
        ["--mqtt", "mqtts://127.0.0.1:\(broker.securePort)/\(base)", "--mqtt-ca", setup.pki.caCertificate,
         "--mqtt-user", FleetBrokerSetup.user, "--mqtt-password-file", setup.passwordFile]
    }

    /// Connections the broker accepted from the daemon's user, by its log (which survives restarts).
    static func acceptedConnections(_ broker: MosquittoBroker) -> Int {
        broker.log.split(separator: "\n").filter {
            $0.contains("New client connected") && $0.contains("u'\(FleetBrokerSetup.user)'")
        }.count
    }

    /// The rest of the drive once the daemon is connected again: new events wake its delivery at once, rather than
    /// after the retry wait that grew while the sink was failing.
    static func driveOnOnceConnected(
        _ daemon: RunningDaemon, _ broker: MosquittoBroker, after count: Int
    ) async throws {
        #expect(await daemon.wait { acceptedConnections(broker) > count }, "\(broker.log)\n\(daemon.log)")
        try daemon.drive(half: 1)
    }

    /// Every event once after dropping repeats by seq, in order.
    static func expectAllInOrder(_ subscriber: TestSubscriber) async {
        #expect(await subscriber.wait(timeout: .seconds(60)) { Set($0.sequences).count >= eventCount })
        var seen = Set<UInt64>()
        let firstArrivals = subscriber.sequences.filter { seen.insert($0).inserted }
        #expect(firstArrivals == Array(1...UInt64(eventCount)), "\(subscriber.sequences)")
    }

    @Test func deliversOverMutualTLSInOrder() async throws {
        let setup = try FleetBrokerSetup()
        let client = try setup.pki.issue("client", commonName: "vehicle-7", alternativeNames: "DNS:vehicle-7")
        let (broker, subscriber) = try await FleetBrokerSetup.startBroker(
            setup.listener(mutual: true), subscribingTo: Self.topic)
        defer { broker.kill() }
        let daemon = try RunningDaemon(
            mqtt: Self.mqttArguments(broker, setup) + ["--mqtt-cert", client.certificate, "--mqtt-key", client.key])
        try daemon.drive()
        await Self.expectAllInOrder(subscriber)
        #expect(try daemon.finish() == 0, "\(daemon.log)")
        // No TLS or credential failure on the way. A busy machine may make a handshake outlast the publish wait;
        // that is a retry, not a refusal.
        let failures = daemon.logLines(containing: "events stay queued").filter {
            !$0.contains("not connected within") && !$0.contains("no PUBACK within")
        }
        #expect(failures.isEmpty, "\(daemon.log)")
    }

    /// The broker's own refusals, a wrong password and a publish its ACL denies: each logged once, with the broker's
    /// reason; the events wait in the store; once fixed (a new password file and SIGHUP to the daemon; a new ACL and
    /// SIGHUP to the broker) they all arrive, in order.
    @Test(arguments: ["wrong password", "ACL denial"])
    func brokerRefusalsAreLoggedOnceAndRecovered(refusal: String) async throws {
        let setup = try FleetBrokerSetup()
        let logged: String
        if refusal == "wrong password" {
            try setup.writePassword("wrong")
            logged = "the broker refused the connection: Not authorized"
        } else {
            try setup.allow("fleet/8/#")
            logged = "the broker refused it: Not authorized"
        }
        let (broker, subscriber) = try await FleetBrokerSetup.startBroker(setup.listener(), subscribingTo: Self.topic)
        defer { broker.kill() }
        let daemon = try RunningDaemon(mqtt: Self.mqttArguments(broker, setup))
        try daemon.drive(half: 0)
        #expect(await daemon.wait { daemon.printed > 0 && !daemon.logLines(containing: logged).isEmpty },
                "\(daemon.log)")
        #expect(daemon.logLines(containing: logged).count == 1, "once per change of state: \(daemon.log)")
        #expect(subscriber.messages.isEmpty)

        if refusal == "wrong password" {
            try setup.writePassword(FleetBrokerSetup.password)
            _ = kill(daemon.process.processIdentifier, SIGHUP)
            try await Self.driveOnOnceConnected(daemon, broker, after: 0)
        } else {
            try setup.allow("fleet/7/#")
            try await broker.reload()
            // New events wake the delivery at once, rather than after the retry wait that grew meanwhile.
            try daemon.drive(half: 1)
        }
        await Self.expectAllInOrder(subscriber)
        #expect(await daemon.wait { !daemon.logLines(containing: "delivering again").isEmpty }, "\(daemon.log)")
        #expect(try daemon.finish() == 0, "\(daemon.log)")
        print("\(refusal):\n\(daemon.logLines(containing: "sink mqtts").joined(separator: "\n"))")
    }

    /// An expired broker certificate is logged as a certificate the daemon did not accept; once the broker's
    /// certificate is replaced by a valid one (and the broker and the daemon get SIGHUP), everything arrives.
    @Test func expiredCertificateIsLoggedAndRecovered() async throws {
        let setup = try FleetBrokerSetup()
        let expired = try setup.pki.issue("expired", commonName: "localhost",
                                          alternativeNames: "DNS:localhost,IP:127.0.0.1",
                                          notBefore: "20200101000000Z", notAfter: "20200102000000Z")
        let (broker, subscriber) = try await FleetBrokerSetup.startBroker(
            setup.listener(certificate: expired), subscribingTo: Self.topic)
        defer { broker.kill() }
        let daemon = try RunningDaemon(mqtt: Self.mqttArguments(broker, setup))
        try daemon.drive(half: 0)
        #expect(await daemon.wait { !daemon.logLines(containing: "certificate verify failed").isEmpty }, "\(daemon.log)")
        #expect(daemon.logLines(containing: "or it has expired").count == 1, "\(daemon.log)")
        #expect(subscriber.messages.isEmpty)

        // The files the broker serves replaced; mosquitto reads them again on SIGHUP (its subscriber stays).
        try FileManager.default.removeItem(atPath: expired.certificate)
        try FileManager.default.removeItem(atPath: expired.key)
        try FileManager.default.copyItem(atPath: setup.server.certificate, toPath: expired.certificate)
        try FileManager.default.copyItem(atPath: setup.server.key, toPath: expired.key)
        try await broker.reload()
        // SIGHUP: the daemon's next connection attempt at once, rather than after its reconnection wait.
        _ = kill(daemon.process.processIdentifier, SIGHUP)
        try await Self.driveOnOnceConnected(daemon, broker, after: 0)
        await Self.expectAllInOrder(subscriber)
        #expect(try daemon.finish() == 0, "\(daemon.log)")
        print("expired certificate:\n\(daemon.logLines(containing: "sink mqtts").joined(separator: "\n"))")
    }

    /// The MQTT options are checked before the store is opened: a wrong combination is a usage error, a file that
    /// cannot be read or is open to others an error naming it; the store is not created.
    @Test func optionsAreCheckedBeforeTheStore() throws {
        let setup = try FleetBrokerSetup()
        let client = try setup.pki.issue("client", commonName: "vehicle-7", alternativeNames: "DNS:vehicle-7")
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("unit.db").path
        let url = "mqtts://127.0.0.1:1/\(Self.base)"
        func run(_ arguments: [String]) throws -> GeofenceExecutable.Outcome {
            try GeofenceExecutable.run(["run", "--store", store, "--nmea", "-"] + arguments)
        }
        let cases: [([String], Int32, String)] = [
            (["--mqtt", "mqtt://127.0.0.1/t", "--mqtt-ca", setup.pki.caCertificate], 2, "need an mqtts:// URL"),
            (["--mqtt", url, "--mqtt-cert", client.certificate], 2, "--mqtt-cert needs --mqtt-key"),
            (["--mqtt", url, "--mqtt-key", client.key], 2, "--mqtt-key needs --mqtt-cert"),
            (["--mqtt", url, "--mqtt-user", "u"], 2, "--mqtt-user needs --mqtt-password-file"),
            (["--mqtt-ca", setup.pki.caCertificate], 2, "need --mqtt URL"),
            (["--mqtt", url, "--mqtt-ca", directory.appendingPathComponent("none.crt").path], 1,
             "cannot read the CA file \"\(directory.appendingPathComponent("none.crt").path)\": No such file"),
        ]
        for (arguments, status, message) in cases {
            let outcome = try run(arguments)
            #expect(outcome.status == status, "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
        }
        _ = chmod(client.key, 0o644)
        let openKey = try run(["--mqtt", url, "--mqtt-cert", client.certificate, "--mqtt-key", client.key])
        #expect(openKey.status == 1)
        #expect(openKey.standardError.contains("the client key \"\(client.key)\" (mode 0644)"), "\(openKey.standardError)")
        #expect(!FileManager.default.fileExists(atPath: store), "the store is not created")
    }
}
#endif
