import Foundation
import Geofencing
import GeofencingInputs
import GeofencingStore
import GeofencingTestSupport
import Testing

/// `geofence run` across restarts: states come back from the store, no enter repeats, a change that happened
/// while the daemon was down is reported on the first fix as inferred, and sequence numbers continue.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct DaemonRestartTests {
    /// Fence A at 500 m and B at 1,500 m along a 2 km drive east, both 80 m.
    static let regions = [(id: "A", center: DaemonFixtures.east(500), radius: 80.0),
                          (id: "B", center: DaemonFixtures.east(1_500), radius: 80.0)]

    /// Runs the daemon over `observations` as an NMEA file (it stops at the end of the input).
    static func run(_ observations: [Observation], store: URL, fences: URL?, in directory: URL) throws -> [EventLine] {
        let log = directory.appendingPathComponent("part-\(UUID().uuidString).nmea")
        try DaemonFixtures.nmea(observations).write(to: log, atomically: true, encoding: .utf8)
        var arguments = ["run", "--store", store.path, "--nmea", log.path, "--format", "jsonl"]
        if let fences { arguments += ["--fences", fences.path] }
        let outcome = try GeofenceExecutable.run(arguments)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try EventLine.parse(outcome.standardOutput)
    }

    @Test func restartInsideRepeatsNoEnter() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("fences.csv")
        try DaemonFixtures.writeFences(Self.regions, to: fences)
        let store = directory.appendingPathComponent("unit.db")
        let drive = try DaemonFixtures.drive(length: 2_000)
        // Split while well inside A (at 500 m, its centre).
        let split = drive.firstTime(within: 1, of: DaemonFixtures.east(500))!
        let first = try Self.run(drive.observations.filter { $0.time <= split }, store: store, fences: fences, in: directory)
        let second = try Self.run(drive.observations.filter { $0.time > split }, store: store, fences: nil, in: directory)

        // The first fix finds A and B outside: the daemon stores their states and reports none of them.
        #expect(first.map { "\($0.type) \($0.region)" } == ["enter A"])
        // After the restart the first fix confirms A inside and B outside without a word (no enter repeated, no
        // burst of state events); then the drive goes on.
        #expect(second.map { "\($0.type) \($0.region) \($0.state)" }
                == ["exit A outside", "enter B inside", "exit B outside"])
        #expect(second.allSatisfy { !$0.inferred })
        #expect((first + second).map(\.seq) == Array(1...4), "sequence numbers continue without a gap")
    }

    @Test func exitWhileDownIsInferred() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("fences.csv")
        try DaemonFixtures.writeFences(Self.regions, to: fences)
        let store = directory.appendingPathComponent("unit.db")
        let drive = try DaemonFixtures.drive(length: 2_000)
        let stop = drive.firstTime(within: 1, of: DaemonFixtures.east(500))!
        // Down from the centre of A until 1,000 m: the exit from A happened while the daemon was not running.
        let resume = drive.firstTime(within: 1, of: DaemonFixtures.east(1_000))!
        _ = try Self.run(drive.observations.filter { $0.time <= stop }, store: store, fences: fences, in: directory)
        let second = try Self.run(drive.observations.filter { $0.time >= resume }, store: store, fences: nil, in: directory)

        #expect(second.map { "\($0.type) \($0.region) \($0.inferred)" }
                == ["exit A true", "enter B false", "exit B false"])
        #expect(second.map(\.seq) == Array(2...4))
        // The store agrees: both regions outside at the end.
        let reopened = try GeofenceStore(path: store.path)
        #expect(try reopened.regions().map(\.stateRecord.state) == [.outside, .outside])
    }
}
