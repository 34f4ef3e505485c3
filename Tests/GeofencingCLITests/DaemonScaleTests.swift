// `geofence run` with a big store, through the real executable: 10^5 regions (10^6 with GEOFENCE_SCALE_FULL=1).
// The daemon reports a determination only for regions found inside, while it stores every region's state, so its
// first start is not a storm of "state outside" events and its restart repeats nothing. Times and peak resident
// memory (GNU time) of the import, the first start and the restart are printed, never asserted.
import Foundation
import Geofencing
import GeofencingStore
import GeofencingTestSupport
import Testing

@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "GNU time (/usr/bin/time) is missing"))
struct DaemonScaleTests {
    /// 10^5 regions by default (a few seconds); GEOFENCE_SCALE_FULL=1: 10^6, the unit the scale targets are for.
    static let regionCount = ProcessInfo.processInfo.environment["GEOFENCE_SCALE_FULL"] == "1" ? 1_000_000 : 100_000

    /// Along the 2 km drive east: "start" contains its first fix, "middle" and "end" are entered and left.
    static let driveRegions = [(id: "start", center: DaemonFixtures.east(0), radius: 300.0),
                               (id: "middle", center: DaemonFixtures.east(1_000), radius: 100.0),
                               (id: "end", center: DaemonFixtures.east(1_800), radius: 100.0)]

    /// The drive's regions, then `regionCount - 3` circles of 50 m on a grid 200 m apart, 1,000 to a row, from
    /// (-26, 152): more than 100 km from the drive, so all of them are outside at every fix. Identifiers of 12
    /// bytes ("s-0000000123"), as typical ones.
    static func fenceFile() -> String {
        var text = "id,lat,lon,radius_m\n"
        text.reserveCapacity(40 * regionCount)
        for region in driveRegions {
            text += "\(region.id),\(region.center.latitude),\(region.center.longitude),\(region.radius)\n"
        }
        for index in 0..<(regionCount - driveRegions.count) {
            let latitude = -26 + Double(index / 1_000) * 0.002
            let longitude = 152 + Double(index % 1_000) * 0.002
            let identifier = "s-" + String(repeating: "0", count: 10 - String(index).count) + String(index)
            text += "\(identifier),\(latitude),\(longitude),50\n"
        }
        return text
    }

    /// Runs `geofence arguments...` under GNU time: its status, standard output, peak resident memory and time.
    private func measure(_ arguments: [String], in directory: URL)
        throws -> (status: Int32, output: String, error: String, peakBytes: Int, seconds: Double)
    {
        let report = directory.appendingPathComponent("time.txt").path
        let output = directory.appendingPathComponent("stdout.txt")
        let error = directory.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: error.path, contents: nil)
        let process = Process()
        // GNU time forks: the child's own peak, not one inherited from this test process.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", report, GeofenceExecutable.path] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: error)
        let started = Date()
        try process.run()
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(started)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let kibibytes = Int(text.split(separator: "\n").last.map(String.init) ?? "") ?? 0
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8),
                try String(contentsOf: error, encoding: .utf8), kibibytes * 1024, seconds)
    }

    private static func figures(_ what: String, _ run: (peakBytes: Int, seconds: Double)) -> String {
        "\(what): \(String(format: "%.2f", run.seconds)) s, peak RSS \(run.peakBytes / 1_048_576) MiB"
    }

    @Test func bigStoreStartsAndRestartsWithoutAStormOfStates() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("fences.csv")
        try Self.fenceFile().write(to: fences, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("unit.db")
        let drive = try DaemonFixtures.drive(length: 2_000)
        let split = drive.firstTime(within: 1, of: DaemonFixtures.east(1_300))!
        let firstPart = directory.appendingPathComponent("first.nmea")
        let secondPart = directory.appendingPathComponent("second.nmea")
        try DaemonFixtures.nmea(drive.observations.filter { $0.time <= split })
            .write(to: firstPart, atomically: true, encoding: .utf8)
        try DaemonFixtures.nmea(drive.observations.filter { $0.time > split })
            .write(to: secondPart, atomically: true, encoding: .utf8)

        let imported = try measure(["fences", "import", fences.path, "--store", store.path], in: directory)
        try #require(imported.status == 0, "\(imported.error)")
        let daemon = ["run", "--store", store.path, "--format", "jsonl", "--nmea"]
        let first = try measure(daemon + [firstPart.path], in: directory)
        try #require(first.status == 0, "\(first.error)")
        let restart = try measure(daemon + [secondPart.path], in: directory)
        try #require(restart.status == 0, "\(restart.error)")
        print("geofence with \(Self.regionCount) regions: " + [
            Self.figures("fences import", (imported.peakBytes, imported.seconds)),
            Self.figures("first start over \(drive.observations.count) fixes", (first.peakBytes, first.seconds)),
            Self.figures("restart", (restart.peakBytes, restart.seconds)),
        ].joined(separator: "; "))

        // Delivered: the one region found inside is determined, the others say nothing until entered.
        let firstEvents = try EventLine.parse(first.output)
        #expect(firstEvents.map { "\($0.type) \($0.region) \($0.state)" }
                == ["state start inside", "exit start outside", "enter middle inside", "exit middle outside"])
        // After the restart the first fix confirms every stored state without a word.
        let restartEvents = try EventLine.parse(restart.output)
        #expect(restartEvents.map { "\($0.type) \($0.region) \($0.state)" }
                == ["enter end inside", "exit end outside"])
        #expect((firstEvents + restartEvents).map(\.seq) == Array(1...6), "sequence numbers continue")

        // Stored: the same events in the outbox (none "state outside"), and every region's state.
        let reopened = try GeofenceStore(path: store.path, readOnly: true)
        let outbox = try reopened.events(after: 0, limit: 1_000)
        #expect(outbox.map(\.sequence) == Array(1...6))
        #expect(!outbox.contains { $0.kind == .state && $0.state == .outside })
        var states: [RegionState: Int] = [:]
        try reopened.forEachRegion { states[$0.stateRecord.state, default: 0] += 1 }
        #expect(states == [.outside: Self.regionCount], "every region's state is stored, outside at the end")
    }
}
