import Foundation
import GeofencingTestSupport
import Testing

/// The README's field test, end to end: a recorded drive replayed by gpsfake through a real gpsd, `geofence run
/// --gpsd` reading it while `gpspipe -w` records what gpsd reported, then `geofence replay` of that recording.
/// Daemon and replay must report exactly the same events: same sequence numbers, types, regions, times, positions
/// and distances (both see gpsd's fixes; the replay reads them from the JSON the way the daemon got them live).
@Suite(.enabled(if: TestEnvironment.canRunGPSFake && GeofenceExecutable.isBuilt
                    && SharedData.isAvailable("pois/seq-stops.txt"),
                "needs gpsfake, the shared data (nmealog.txt, seq-stops.txt) and the geofence executable"))
struct FieldTestThroughGPSDTests {
    @Test func daemonThroughGPSDMatchesReplayOfTheRecording() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stops = SharedData.url("pois/seq-stops.txt").path
        // 1,200 sentences of padding before the log: the daemon and gpspipe, started as soon as gpsd listens,
        // connect while it plays. One pass, ended by the copy's end marker.
        let log = try OnePass.paddedCopy(of: TestEnvironment.nmeaLog("nmealog.txt"), padding: 1_200)
        defer { try? FileManager.default.removeItem(atPath: log) }
        let port = TCPProbe.freePort()
        let gpsfake = try await GPSFake.start(
            log: log, port: port, cycle: OnePass.cycle, nowait: true, endMarker: OnePass.endMarker)

        let daemonOutput = directory.appendingPathComponent("daemon.jsonl")
        let recording = directory.appendingPathComponent("recording.json")
        let daemon = try Self.start(
            GeofenceExecutable.path,
            ["run", "--gpsd", "127.0.0.1:\(port)", "--store", directory.appendingPathComponent("unit.db").path,
             "--fences", stops, "--radius", "150", "--format", "jsonl"],
            output: daemonOutput, errors: directory.appendingPathComponent("daemon.err"))
        // stdbuf -oL: gpspipe writes through stdio, fully buffered into a file; line buffering lets the pass be
        // watched and keeps every line when gpspipe is killed.
        let gpspipe = try Self.start(
            "/usr/bin/stdbuf", ["-oL", TestEnvironment.executable("gpspipe") ?? "/usr/bin/gpspipe", "-w", "127.0.0.1:\(port)"],
            output: recording, errors: directory.appendingPathComponent("gpspipe.err"))

        // The pass is over when gpsd has read the end marker; gpsd is then killed, and gpspipe, which has every
        // report once its connection closes, ends by itself.
        let played = await gpsfake.finishPass()
        let gpsfakeOutput = gpsfake.output
        gpspipe.waitUntilExit()
        let tpvCount = Self.tpvCount(recording)
        let replay = try GeofenceExecutable.run(
            ["replay", recording.path, "--fences", stops, "--radius", "150", "--format", "jsonl"])
        // The daemon got the same reports (its connection closed after them too) but works through them at its
        // own pace: wait until it has written as many events as the replay of the recording, then stop it. The
        // deadline only bounds a daemon that reports fewer; the comparison below says what differs.
        let replayed = replay.standardOutput.split(separator: "\n")
        let deadline = ContinuousClock.now + .seconds(120)
        while Self.text(daemonOutput).split(separator: "\n").count < replayed.count
            && ContinuousClock.now < deadline && daemon.isRunning {
            try await Task.sleep(for: .milliseconds(50))
        }
        daemon.interrupt()  // SIGINT: the daemon delivers what is queued and exits 0
        daemon.waitUntilExit()
        await gpsfake.stop()
        #expect(played, "gpsd read the whole log: \(gpsfakeOutput.suffix(2000))")
        #expect(daemon.terminationStatus == 0, "\(Self.text(directory.appendingPathComponent("daemon.err")))")
        #expect(tpvCount >= 150, "one pass of nmealog.txt: 155 fixes through gpsd, got \(tpvCount)")

        #expect(replay.status == 0, "\(replay.standardError)")
        let live = Self.text(daemonOutput).split(separator: "\n")
        print("field test: gpsd reported \(tpvCount) TPVs; daemon \(live.count) events, replay \(replayed.count)")
        let transitions = live.filter { $0.contains("\"type\":\"enter\"") || $0.contains("\"type\":\"exit\"") }
        #expect(transitions.count >= 4, "the drive enters and leaves stops")
        #expect(live == replayed)
    }

    /// Starts a process with its output in files. Foundation's Process: the daemon takes its signals with
    /// sigwait, so the blocked mask a test runner's child inherits does not hide SIGINT from it.
    static func start(_ executable: String, _ arguments: [String], output: URL, errors: URL) throws -> Process {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        return process
    }

    static func text(_ url: URL) -> String {
        String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
    }

    static func tpvCount(_ url: URL) -> Int {
        // gpspipe ends lines with CR LF, a single Character in Swift: split on any line break.
        text(url).split(whereSeparator: \.isNewline).filter { $0.contains("\"class\":\"TPV\"") && $0.contains("\"lat\"") }.count
    }
}
