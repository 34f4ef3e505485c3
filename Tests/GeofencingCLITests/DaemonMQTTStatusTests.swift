#if MQTT
import Foundation
import Geofencing
import GeofencingEvents
import GeofencingInputs
import GeofencingTestSupport
import GeofencingWriters
import Testing

/// `geofence run --mqtt` and the unit's status on BASE/status, against a real mosquitto: online (retained) at
/// connection with the status fields, again every --status-interval; killed with SIGKILL, the broker publishes the
/// Last Will (offline); restarted, online again; stopped with SIGTERM, offline, published by the daemon itself.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled && GeofenceExecutable.isBuilt,
                             "needs mosquitto (Debian package mosquitto) and the geofence executable"))
struct DaemonMQTTStatusTests {
    static let base = "fleet/12"

    static func object(_ json: String) -> [String: Any]? { FleetUnitProcess.object(json) }

    static func status(_ json: String) -> String? { object(json)?["status"] as? String }

    /// The daemon on the store in `directory`, reporting its status every second.
    static func start(_ directory: URL, _ broker: MosquittoBroker, fences: Bool) throws -> (Process, Pipe) {
        var extra = ["--format", "jsonl", "--status-interval", "1"]
        if fences { extra += ["--fences", directory.appendingPathComponent("fences.csv").path] }
        return try FleetUnitProcess.start(directory, broker, base: base, extra: extra)
    }

    @Test func statusOnlineAtConnectOfflineAsWillAndAtStop() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("stderr.txt").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        var fences = "id,lat,lon,radius_m\n"
        for index in 0..<3 {
            let center = DaemonMQTTTests.east(150 + 100 * Double(index))
            fences += "f\(index),\(center.latitude),\(center.longitude),20\n"
        }
        try fences.write(to: directory.appendingPathComponent("fences.csv"), atomically: true, encoding: .utf8)
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        try await broker.start()
        let statuses = try TestSubscriber(port: broker.port, topic: "\(Self.base)/status")
        let events = try TestSubscriber(port: broker.port, topic: "\(Self.base)/events")
        #expect(await statuses.wait(timeout: .seconds(10)) { $0.subscriptions == 1 })
        #expect(await events.wait(timeout: .seconds(10)) { $0.subscriptions == 1 })

        var (daemon, input) = try Self.start(directory, broker, fences: true)
        defer { if daemon.isRunning { daemon.terminate() } }
        func daemonLog() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let route = try SimulatedRoute(polyline: [DaemonMQTTTests.east(0), DaemonMQTTTests.east(500)])
        let observations = try DriveSimulator(route: route, profile: .car, errors: .perfect, seed: 3).run()
            .observations
        input.fileHandleForWriting.write(Data(NMEAWriter().log(observations).utf8))

        // Online, with every field; the fences once the store is open, the last fix once one came.
        #expect(await statuses.wait(timeout: .seconds(20)) { subscriber in
            subscriber.messages.contains { message in
                let status = Self.object(message)
                return status?["fences"] as? Int == 3 && status?["last_fix"] is [String: Any]
            }
        }, "\(statuses.messages) \(daemonLog())")
        let online = try #require(statuses.messages.last.flatMap(Self.object))
        #expect(online["status"] as? String == "online")
        // The version is the repository's VERSION file, as the build wrote it into the binary.
        let version = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("VERSION"), encoding: .utf8)
        #expect(online["version"] as? String == version.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect((online["traits"] as? [String])?.contains("MQTT") == true, "\(online)")
        #expect(online["fences"] as? Int == 3)
        #expect(online["fence_set_version"] is NSNull)
        let lastFix = try #require(online["last_fix"] as? [String: Any])
        #expect(["2d", "3d"].contains(lastFix["mode"] as? String), "\(lastFix)")
        #expect((lastFix["time"] as? String).flatMap { ISO8601Time.parse($0) } != nil, "\(lastFix)")
        let backlog = try #require(online["backlog"] as? [String: Any])
        #expect(backlog.keys.contains("mqtt:127.0.0.1:\(broker.port)/\(Self.base)"), "\(backlog)")
        #expect(online["uptime_s"] is Int)
        #expect((online["time"] as? String).flatMap { ISO8601Time.parse($0) } != nil)
        let keys = statuses.messages.last!.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }
            .map(\.element).filter { ["status", "version", "fences", "fence_set_version", "last_fix", "backlog",
                                      "uptime_s", "time"].contains(String($0)) }
        #expect(keys.first == "status" && keys.last == "time", "keys in order: \(keys)")
        // Every second while connected, the status again.
        let count = statuses.messages.count
        #expect(await statuses.wait(timeout: .seconds(10)) { $0.messages.count >= count + 2 }, "periodic")
        // The events, on BASE/events, in order: an enter and an exit of each fence (no state: all are outside at
        // the first fix).
        #expect(await events.wait(timeout: .seconds(20)) { Set($0.sequences).count >= 6 }, "\(events.messages)")
        #expect(events.sequences == Array(1...UInt64(events.sequences.count)), "\(events.sequences)")

        // SIGKILL: no DISCONNECT, so the broker publishes the Last Will, retained.
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        #expect(await statuses.wait(timeout: .seconds(10)) { Self.status($0.messages.last ?? "") == "offline" },
                "\(statuses.messages.suffix(2))")
        let afterKill = try TestSubscriber(port: broker.port, topic: "\(Self.base)/status")
        #expect(await afterKill.wait(timeout: .seconds(10)) { !$0.messages.isEmpty })
        #expect(Self.status(afterKill.messages[0]) == "offline", "retained: \(afterKill.messages)")

        // Restarted: online again, with the stored fences.
        (daemon, input) = try Self.start(directory, broker, fences: false)
        #expect(await statuses.wait(timeout: .seconds(20)) { subscriber in
            Self.status(subscriber.messages.last ?? "") == "online"
                && Self.object(subscriber.messages.last!)?["fences"] as? Int == 3
        }, "\(statuses.messages.suffix(2)) \(daemonLog())")

        // SIGTERM: a clean stop; the daemon publishes the offline status itself, retained, then disconnects.
        daemon.terminate()
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0, "\(daemonLog())")
        #expect(await statuses.wait(timeout: .seconds(10)) { Self.status($0.messages.last ?? "") == "offline" })
        let afterStop = try TestSubscriber(port: broker.port, topic: "\(Self.base)/status")
        #expect(await afterStop.wait(timeout: .seconds(10)) { !$0.messages.isEmpty })
        #expect(Self.status(afterStop.messages[0]) == "offline", "retained: \(afterStop.messages)")
        try? input.fileHandleForWriting.close()
    }
}
#endif
