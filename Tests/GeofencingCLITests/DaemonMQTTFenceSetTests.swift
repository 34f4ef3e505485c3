#if MQTT
import Foundation
import Geofencing
import GeofencingTestSupport
import Testing

/// Fence sets through the broker, against a real mosquitto: a set published retained before the unit started is
/// applied when it connects and answered on BASE/fences/ack; a patch on the wrong base is rejected and changes
/// nothing; a set published while the unit was down is applied when it comes back, with the version in its status.
@Suite(.serialized, .enabled(if: MosquittoBroker.isInstalled && GeofenceExecutable.isBuilt,
                             "needs mosquitto (Debian package mosquitto) and the geofence executable"))
struct DaemonMQTTFenceSetTests {
    static let base = "fleet/21"

    static func object(_ json: String) -> [String: Any]? { FleetUnitProcess.object(json) }

    /// A FeatureCollection of circles east of the test area, with its version.
    static func set(version: String, circles: Range<Int>) -> String {
        let features = circles.map { index in
            let center = DaemonMQTTTests.east(150 + 100 * Double(index))
            return "{\"type\":\"Feature\",\"id\":\"c\(index)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":"
                + "[\(center.longitude),\(center.latitude)]},\"properties\":{\"radius\":20}}"
        }
        return "{\"type\":\"FeatureCollection\",\"version\":\"\(version)\",\"features\":["
            + features.joined(separator: ",") + "]}"
    }

    /// The daemon on the store in `directory`, without fixes (fence sets do not wait for one).
    static func start(_ directory: URL, _ broker: MosquittoBroker) throws -> (Process, Pipe) {
        try FleetUnitProcess.start(directory, broker, base: base, extra: ["--status-interval", "0"])
    }

    static func stop(_ daemon: Process, _ input: Pipe) {
        daemon.terminate()
        daemon.waitUntilExit()
        try? input.fileHandleForWriting.close()
    }

    @Test func setsArriveRetainedAndAreAnswered() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("stderr.txt").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        func daemonLog() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let broker = try MosquittoBroker()
        defer { broker.kill() }
        try await broker.start()
        let acks = try TestSubscriber(port: broker.port, topic: "\(Self.base)/fences/ack")
        let statuses = try TestSubscriber(port: broker.port, topic: "\(Self.base)/status")
        #expect(await acks.wait(timeout: .seconds(10)) { $0.subscriptions == 1 })
        #expect(await statuses.wait(timeout: .seconds(10)) { $0.subscriptions == 1 })
        let fences = "\(Self.base)/fences"

        // Published retained before the unit exists: applied at its first connection.
        #expect(acks.publish(Array(Self.set(version: "v1", circles: 0..<3).utf8), to: fences, retain: true))
        var (daemon, input) = try Self.start(directory, broker)
        defer { if daemon.isRunning { daemon.terminate() } }
        #expect(await acks.wait(timeout: .seconds(30)) { !$0.messages.isEmpty }, "\(daemonLog())")
        let first = try #require(acks.messages.first.flatMap(Self.object))
        #expect(first["version"] as? String == "v1")
        #expect(first["status"] as? String == "applied", "\(acks.messages)")
        #expect(first["added"] as? Int == 3 && first["fences"] as? Int == 3, "\(acks.messages)")
        #expect(await statuses.wait(timeout: .seconds(20)) { subscriber in
            subscriber.messages.contains { Self.object($0)?["fence_set_version"] as? String == "v1" }
        }, "\(statuses.messages) \(daemonLog())")

        // A patch on a base the unit does not have: rejected, naming why; the unit keeps v1.
        let wrongBase = "{\"base_version\":\"v0\",\"version\":\"v1.1\",\"upsert\":[],\"remove\":[\"c0\"]}"
        #expect(acks.publish(Array(wrongBase.utf8), to: fences, retain: false))
        #expect(await acks.wait(timeout: .seconds(20)) { $0.messages.count >= 2 }, "\(daemonLog())")
        let rejected = try #require(Self.object(acks.messages[1]))
        #expect(rejected["status"] as? String == "rejected", "\(acks.messages)")
        #expect((rejected["error"] as? String)?.contains("v0") == true, "\(acks.messages)")
        Self.stop(daemon, input)
        let listed = try ProgramRun.run(
            GeofenceExecutable.path, ["fences", "list", "--store", directory.appendingPathComponent("unit.db").path])
        #expect(listed.status == 0, "\(listed.output)")
        #expect(listed.output.split(separator: "\n").count == 4, "a header and c0, c1, c2: \(listed.output)")

        // Published (retained) while the unit is down: applied when it comes back.
        #expect(acks.publish(Array(Self.set(version: "v2", circles: 1..<5).utf8), to: fences, retain: true))
        (daemon, input) = try Self.start(directory, broker)
        #expect(await acks.wait(timeout: .seconds(30)) { subscriber in
            subscriber.messages.contains { Self.object($0)?["version"] as? String == "v2" }
        }, "\(acks.messages) \(daemonLog())")
        let second = try #require(acks.messages.compactMap(Self.object).first { $0["version"] as? String == "v2" })
        #expect(second["status"] as? String == "applied", "\(second)")
        #expect(second["added"] as? Int == 2 && second["removed"] as? Int == 1 && second["fences"] as? Int == 4,
                "\(second)")
        #expect(await statuses.wait(timeout: .seconds(20)) { subscriber in
            subscriber.messages.contains { message in
                let status = Self.object(message)
                return status?["fence_set_version"] as? String == "v2" && status?["fences"] as? Int == 4
            }
        }, "\(statuses.messages.suffix(3)) \(daemonLog())")
        Self.stop(daemon, input)
        #expect(daemon.terminationStatus == 0, "\(daemonLog())")
        // The status's own (read-only) store connection closed before the daemon's: the last one to close
        // checkpoints the WAL into the store and removes it.
        let store = directory.appendingPathComponent("unit.db").path
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"), "the WAL was left behind")
    }
}
#endif
