import Foundation
import GeofencingStore
import GeofencingTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `geofence run` stopped (SIGTERM, SIGKILL) in the middle of an overspeed episode and started again: the episode
/// goes on from the store, so the drive has exactly one overspeed and one overspeed_end, whose maximum speed and
/// time over the limit are the whole episode's.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct DaemonOverspeedRestartTests {
    @Test("an overspeed episode across a restart: one overspeed, one overspeed_end for the whole episode",
          arguments: [SIGTERM, SIGKILL])
    func episodeSurvivesRestart(signal: Int32) throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("zone.geojson")
        try SpeedZoneFixtures.fenceFile().write(to: fences, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("unit.db")

        // First run: the drive's first 40 s from a pipe (the overspeed fires at t = 15), stopped once the
        // overspeed line is out (so it is stored, with the episode), while the vehicle is still speeding.
        let firstOutput = directory.appendingPathComponent("first.jsonl")
        let errors = directory.appendingPathComponent("first-stderr.txt")
        for file in [firstOutput, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: GeofenceExecutable.path)
        daemon.arguments = ["run", "--store", store.path, "--nmea", "-", "--format", "jsonl", "--fences", fences.path]
        let input = Pipe()
        daemon.standardInput = input
        daemon.standardOutput = try FileHandle(forWritingTo: firstOutput)
        daemon.standardError = try FileHandle(forWritingTo: errors)
        try daemon.run()
        input.fileHandleForWriting.write(Data(SpeedZoneFixtures.nmea(0..<40).utf8))
        // The deadline only bounds a hang (a daemon that never reports the overspeed fails the test below).
        let deadline = Date(timeIntervalSinceNow: 120)
        func text(_ url: URL) -> String { String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
        while !text(firstOutput).contains("\"type\":\"overspeed\""), daemon.isRunning, Date() < deadline {
            usleep(10_000)
        }
        try #require(text(firstOutput).contains("\"type\":\"overspeed\""), "no overspeed before the stop: \(text(errors))")
        kill(daemon.processIdentifier, signal)
        daemon.waitUntilExit()
        try? input.fileHandleForWriting.close()
        if signal == SIGKILL {
            #expect(daemon.terminationReason == .uncaughtSignal)
        } else {
            #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 0, "\(text(errors))")
        }
        #expect(try #require(try GeofenceStore(path: store.path, readOnly: true).region(identifier: "school"))
            .stateRecord.overspeed?.reported == true, "the store holds the reported episode")

        // Second run, from the store alone: the rest of the drive (still over the limit to t = 49, under after).
        let log = directory.appendingPathComponent("rest.nmea")
        try SpeedZoneFixtures.nmea(40..<SpeedZoneFixtures.count).write(to: log, atomically: true, encoding: .utf8)
        let second = try GeofenceExecutable.run(["run", "--store", store.path, "--nmea", log.path, "--format", "jsonl"])
        try #require(second.status == 0, "\(second.standardError)")

        // Both runs' lines, repeats (a delivery the kill cut short) dropped by seq as a consumer does.
        var bySequence: [Int: [String: Any]] = [:]
        for line in try SpeedZoneFixtures.overspeedLines(text(firstOutput) + second.standardOutput) {
            bySequence[(line["seq"] as? NSNumber)?.intValue ?? 0] = line
        }
        let lines = bySequence.sorted { $0.key < $1.key }.map(\.value)
        #expect(lines.map { $0["type"] as? String } == ["overspeed", "overspeed_end"], "\(lines)")
        try #require(lines.count == 2)
        #expect((lines[0]["over_limit_s"] as? NSNumber)?.doubleValue == 5)
        // The end: back under the limit from t = 50, reported at t = 55; the maximum from t = 10 ... 12.
        #expect(lines[1]["time"] as? String == "2026-03-01T21:30:55Z", "\(lines[1])")
        #expect((lines[1]["max_speed_kmh"] as? NSNumber)?.doubleValue == 74.1, "\(lines[1])")
        #expect((lines[1]["over_limit_s"] as? NSNumber)?.doubleValue == 40, "\(lines[1])")
        #expect(try GeofenceStore(path: store.path, readOnly: true).region(identifier: "school")?
            .stateRecord.overspeed == nil, "the ended episode is gone from the store")
    }
}
