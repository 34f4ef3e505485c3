import Foundation
import Geofencing
@testable import GeofencingCLI
import GeofencingEvents
import GeofencingStore
import GeofencingTestSupport
import Testing

/// A fence set applied while the daemon runs (`Daemon.receiveFenceSet`, as the MQTT link calls it): the monitor
/// switches to the new set between two fixes; a region the vehicle is inside and that the set keeps stays inside
/// (no exit and enter again), a removed one reports nothing more, a new one is determined at the next fix. Events are
/// read from the store's outbox; the daemon's standard output sink writes to the test's standard output.
@Suite("Fence sets in a running daemon")
struct DaemonFenceSetTests {
    @Test func aSetAppliedBetweenTwoFixesKeepsTheStatesOfRegionsThatStay() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storePath = directory.appendingPathComponent("unit.db").path
        // A (200 ... 800 m) and B (1,720 ... 1,880 m) along a 2 km drive east; the new set keeps A as it is, drops
        // B and adds C (1,100 ... 1,500 m).
        let circle = FenceSetApplierTests.circle
        do {
            let ack = FenceSetApplier(store: try GeofenceStore(path: storePath)).apply(
                FenceSetApplierTests.set("\"v1\"", [circle("A", 500, "300", ""), circle("B", 1_800, "80", "")]))
            #expect(ack.status == .applied)
        }
        let drive = try DaemonFixtures.drive(length: 2_000)
        let split = try #require(drive.observations.firstIndex {
            ($0.fix?.coordinate.longitude ?? 0) > DaemonFixtures.east(450).longitude
        })

        let input = Pipe()
        var options = Daemon.Options(
            storePath: storePath, input: .nmea(path: "/dev/fd/\(input.fileHandleForReading.fileDescriptor)"))
        options.format = .jsonl
        let daemon = Daemon(options: options)
        let running = Task { try await daemon.run() }
        let outbox = try GeofenceStore(path: storePath, readOnly: true)
        func events() throws -> [EventRecord] { try outbox.events(after: 0, limit: 1_000) }

        input.fileHandleForWriting.write(Data(DaemonFixtures.nmea(drive.observations[..<split]).utf8))
        // The set must come after the first fixes (B determined, silently; A entered): wait for that, however busy
        // the machine is (the deadline only bounds a hang).
        let deadline = ContinuousClock.now + .seconds(300)
        func entered() throws -> Bool { try events().contains { $0.region == "A" && $0.kind == .enter } }
        while try !entered(), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(try entered(), "the daemon did not take the first part of the drive")
        let beforeSet = try events().count
        let ack = await withCheckedContinuation { continuation in
            daemon.receiveFenceSet(FenceSetApplierTests.set(
                "\"v2\"", [circle("A", 500, "300", ""), circle("C", 1_300, "200", "")])) {
                continuation.resume(returning: $0)
            }
        }
        #expect(ack == FenceSetAck(version: "v2", status: .applied, fences: 2, added: 1, removed: 1))
        input.fileHandleForWriting.write(Data(DaemonFixtures.nmea(drive.observations[split...]).utf8))
        try input.fileHandleForWriting.close()
        try await running.value

        let all = try events()
        func kinds(_ region: String) -> [EventRecord.Kind] { all.filter { $0.region == region }.map(\.kind) }
        // The daemon reports a state only for a region found inside: A, B and C are outside when first determined.
        #expect(kinds("A") == [.enter, .exit], "A stays inside across the new set")
        #expect(kinds("B") == [], "B reports nothing, nor after it was removed")
        #expect(kinds("C") == [.enter, .exit], "C is monitored from the first fix after the set")
        #expect(all.firstIndex { $0.region == "C" }.map { $0 >= beforeSet } == true)
        #expect(try outbox.fenceSetVersion() == "v2")
    }
}

/// `geofence fences apply FILE`: the same code as the daemon's, with the ack on standard output.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct FencesApplyCommandTests {
    @Test func appliesPrintsTheAckAndRejectsWithExitOne() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("unit.db").path
        let file = directory.appendingPathComponent("set.geojson")
        let circle = FenceSetApplierTests.circle
        try Data(FenceSetApplierTests.set("\"v1\"", [circle("A", 500, "80", "")])).write(to: file)
        let applied = try GeofenceExecutable.run(["fences", "apply", file.path, "--store", store])
        #expect(applied.status == 0, "\(applied.standardError)")
        let ack = #"{"version":"v1","status":"applied","fences":1,"added":1,"removed":0,"replaced":0,"error":null}"#
        #expect(applied.standardOutput == ack + "\n")
        let again = try GeofenceExecutable.run(["fences", "apply", file.path, "--store", store])
        #expect(again.status == 0)
        #expect(again.standardOutput.contains(#""status":"unchanged""#))

        let before = try GeofenceExecutable.run(["fences", "export", "--store", store]).standardOutput
        try Data(FenceSetApplierTests.set("\"v2\"", [circle("A", 500, "80", ""), circle("B", 900, "true", "")]))
            .write(to: file)
        let rejected = try GeofenceExecutable.run(["fences", "apply", file.path, "--store", store])
        #expect(rejected.status == 1)
        #expect(rejected.standardOutput.contains(#""version":null,"status":"rejected","fences":1"#))
        #expect(rejected.standardOutput.contains(#"feature 2 (id \"B\"): field properties.radius"#))
        #expect(rejected.standardError.contains("rejected"))
        let oversized = try GeofenceExecutable.run(["fences", "apply", file.path, "--store", store,
                                                    "--max-fence-set-bytes", "100"])
        #expect(oversized.status == 1)
        #expect(oversized.standardOutput.contains("more than --max-fence-set-bytes 100"))
        #expect(try GeofenceExecutable.run(["fences", "export", "--store", store]).standardOutput == before)
        let reopened = try GeofenceStore(path: store, readOnly: true)
        #expect(try reopened.fenceSetVersion() == "v1")
    }
}
