#if MQTT
import Foundation
import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import GeofencingWriters
import Testing

/// `geofence run --mqtt` against a real broker that goes away and comes back: events queue in the store while it
/// is down and arrive, in order and all of them, when it returns; standard output is not held back meanwhile.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled && GeofenceExecutable.isBuilt,
                             "needs mosquitto (Debian package mosquitto) and the geofence executable"))
struct DaemonMQTTTests {
    /// A point `metres` east of (-27.5, 153.0) (flat approximation; the fences sit on the same points).
    static func east(_ metres: Double) -> Coordinate {
        Coordinate(latitude: -27.5, longitude: 153.0 + metres / (111_320 * cos(27.5 * .pi / 180)))
    }

    @Test func eventsQueueWhileTheBrokerIsDown() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let broker = try MosquittoBroker()
        try await broker.start()
        let base = "vehicle/7/geofence"
        let topic = base + "/events"
        let subscriber = try TestSubscriber(port: broker.port, topic: topic)
        #expect(await subscriber.wait(timeout: .seconds(10)) { $0.subscriptions > 0 })

        // 40 fences of 20 m every 100 m along a 4.2 km drive east: an enter and an exit each (the daemon reports no
        // state for a region found outside).
        var fences = "id,lat,lon,radius_m\n"
        for index in 0..<40 {
            let center = Self.east(150 + 100 * Double(index))
            fences += "f\(index),\(center.latitude),\(center.longitude),20\n"
        }
        try fences.write(toFile: file("fences.csv"), atomically: true, encoding: .utf8)
        let route = try SimulatedRoute(polyline: [Self.east(0), Self.east(4_200)])
        let drive = try DriveSimulator(route: route, profile: .car, errors: .perfect, seed: 3).run()
        let observations = drive.observations
        let half = observations.count / 2
        let writer = NMEAWriter()

        let output = file("stdout.jsonl")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: file("stderr.txt"), contents: nil)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: GeofenceExecutable.path)
        daemon.arguments = ["run", "--store", file("unit.db"), "--fences", file("fences.csv"),
                            "--nmea", "-", "--format", "jsonl", "--mqtt", "\(broker.url)/\(base)"]
        let input = Pipe()
        // Close-on-exec for our end of the pipe: the broker restarted below must not inherit it, or the daemon
        // would never see the end of its input.
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        daemon.standardInput = input
        daemon.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        daemon.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: file("stderr.txt")))
        try daemon.run()
        defer { if daemon.isRunning { daemon.terminate() } }
        func printed() -> Int {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").count
        }

        // First half with the broker up: everything printed is published.
        input.fileHandleForWriting.write(Data(writer.log(observations[..<half]).utf8))
        #expect(await subscriber.wait(timeout: .seconds(30)) { $0.messages.count >= 20 && $0.messages.count == printed() })
        let beforeOutage = printed()

        // Second half with the broker down: standard output goes on, MQTT queues.
        broker.stop()
        input.fileHandleForWriting.write(Data(writer.log(observations[half...]).utf8))
        let deadline = ContinuousClock.now + .seconds(30)
        while printed() < 80 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(printed() == 80, "40 enters, 40 exits on standard output")
        #expect(printed() > beforeOutage)

        // Broker back: the queued events arrive (the sink retries with a backoff of at most 30 s).
        try await broker.start()
        #expect(await subscriber.wait(timeout: .seconds(60)) { Set($0.sequences).count >= 80 })
        try input.fileHandleForWriting.close()  // end of input: the daemon stops
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        let sequences = subscriber.sequences
        #expect(Set(sequences) == Set(1...80), "every event published at least once")
        #expect(sequences == sequences.sorted() || Set(sequences).count < sequences.count,
                "in order, apart from repeats after the reconnect")
        print("daemon MQTT: \(sequences.count) messages for 80 events; \(beforeOutage) published before the outage")
    }
}

extension TestSubscriber {
    var sequences: [UInt64] {
        messages.compactMap { message in
            guard let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any] else {
                return nil
            }
            return (object["seq"] as? NSNumber)?.uint64Value
        }
    }
}
#endif
