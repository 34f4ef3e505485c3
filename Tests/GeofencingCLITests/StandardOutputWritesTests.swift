import Foundation
import Geofencing
import GeofencingInputs
import GeofencingTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Events on standard output are buffered writes, never fsync'ed (durability lives in the store), flushed once per
/// fix that produced events (`replay`) or per delivered batch (the daemon): counted from the system calls, with
/// strace, on a drive past 50 fences at one place (100 events in 2 fixes: their enters and exits; they are outside
/// at the first fix, which the daemon and replay store without an event).
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"),
                "strace is not installed (scripts/install-deps.sh --test)"))
struct StandardOutputWritesTests {
    static let strace = "/usr/bin/strace"  // as in the suite's condition
    static let fenceCount = 50

    /// 50 fences on one spot and a drive through it, in `directory`.
    static func scenario(in directory: URL) throws -> (fences: URL, nmea: URL) {
        let fences = directory.appendingPathComponent("fences.csv")
        try DaemonFixtures.writeFences(
            (0..<fenceCount).map { (id: "f\($0)", center: DaemonFixtures.east(300), radius: 50.0) }, to: fences)
        let nmea = directory.appendingPathComponent("drive.nmea")
        try DaemonFixtures.nmea(try DaemonFixtures.drive(length: 1_000).observations)
            .write(to: nmea, atomically: true, encoding: .utf8)
        return (fences, nmea)
    }

    /// Runs `geofence arguments` under strace (writes and syncs of every thread), standard output to a regular
    /// file; returns the events printed and the counts of write(2) and fsync/fdatasync on descriptor 1.
    static func traced(_ arguments: [String], in directory: URL) throws
        -> (status: Int32, events: [EventLine], writes: Int, syncs: Int, log: String)
    {
        let trace = directory.appendingPathComponent("trace-\(UUID().uuidString)").path
        let daemon = try DaemonProcess(
            ["-f", "-qq", "-e", "trace=write,fsync,fdatasync", "-o", trace, GeofenceExecutable.path] + arguments,
            output: directory.appendingPathComponent("out"), errors: directory.appendingPathComponent("err"),
            executable: strace)
        try daemon.closeInput()
        daemon.process.waitUntilExit()
        let calls = try String(contentsOfFile: trace, encoding: .utf8)
        func count(_ call: String) -> Int { calls.components(separatedBy: " \(call)").count - 1 }
        let output = try String(contentsOf: directory.appendingPathComponent("out"), encoding: .utf8)
        return (daemon.process.terminationStatus, try EventLine.parse(output), count("write(1,"),
                count("fsync(1)") + count("fdatasync(1)"), daemon.standardError)
    }

    @Test func replayWritesOncePerFixWithEventsAndNeverSyncs() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, nmea) = try Self.scenario(in: directory)
        let run = try Self.traced(["replay", nmea.path, "--fences", fences.path, "--format", "jsonl"], in: directory)
        #expect(run.status == 0, "\(run.log)")
        #expect(run.events.count == 2 * Self.fenceCount, "enter and exit of every fence")
        let fixesWithEvents = Set(run.events.map(\.time)).count
        #expect(run.syncs == 0, "standard output was synced \(run.syncs) times")
        #expect(run.writes >= 1 && run.writes <= fixesWithEvents, "\(run.writes) writes for \(fixesWithEvents) fixes")
    }

    @Test func daemonWritesOncePerBatchAndNeverSyncsStandardOutput() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, nmea) = try Self.scenario(in: directory)
        let run = try Self.traced(
            ["run", "--store", directory.appendingPathComponent("unit.db").path, "--fences", fences.path,
             "--nmea", nmea.path, "--format", "jsonl"],
            in: directory)
        #expect(run.status == 0, "\(run.log)")
        #expect(run.events.map(\.seq) == Array(1...UInt64(2 * Self.fenceCount)))
        #expect(run.syncs == 0, "standard output was synced \(run.syncs) times")
        // A batch is at most 64 events and never spans more than the fixes stored when it is read: at most one
        // write per fix with events plus one per 64 events.
        let bound = Set(run.events.map(\.time)).count + (run.events.count + 63) / 64
        #expect(run.writes >= 1 && run.writes <= bound, "\(run.writes) writes, at most \(bound) expected")
    }
}

/// Standard output appended to a file that a killed daemon left ending in part of a line (`geofence run >>
/// events.jsonl` after a kill -9 cut a write short): the next process starts on a new line, so the cut part is a
/// line of its own and every line it writes is whole; the daemon and `replay` alike.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct StandardOutputAfterCutLineTests {
    static let cutLine = #"{"seq":7,"type":"enter","region":"f3","ti"#

    @Test(arguments: ["replay", "run"])
    func appendsOnANewLine(command: String) throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, nmea) = try StandardOutputWritesTests.scenario(in: directory)
        let output = directory.appendingPathComponent("events.jsonl")
        try Self.cutLine.write(to: output, atomically: false, encoding: .utf8)
        let arguments = command == "replay"
            ? ["replay", nmea.path, "--fences", fences.path, "--format", "jsonl"]
            : ["run", "--store", directory.appendingPathComponent("unit.db").path, "--fences", fences.path,
               "--nmea", nmea.path, "--format", "jsonl"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: GeofenceExecutable.path)
        process.arguments = arguments
        let appending = open(output.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        try #require(appending >= 0)
        process.standardOutput = FileHandle(fileDescriptor: appending, closeOnDealloc: true)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == Self.cutLine, "the cut part stays as it was, a line of its own")
        let events = try EventLine.parse(lines.dropFirst().joined(separator: "\n"))
        #expect(events.count == 2 * StandardOutputWritesTests.fenceCount, "every line after it is a whole event")
    }
}
