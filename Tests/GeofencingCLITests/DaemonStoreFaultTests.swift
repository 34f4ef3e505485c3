import Foundation
import Geofencing
import GeofencingEvents
import GeofencingInputs
import GeofencingStore
import GeofencingTestSupport
import GeofencingWriters
import Testing

/// `geofence run --store` on a file system that fills up, or turns read-only, while the daemon runs, and on a store
/// damaged before it starts: an error naming the store's path; a non-zero exit when events could not be stored by
/// the end; every event stored up to the failure still there and consistent; nothing delivered that is not stored.
///
/// The reference is `geofence replay` of the same drive: with nothing lost, the daemon's events are the replay's,
/// line for line; after a failure, what the store holds is the beginning of them.
@Suite(.serialized, .enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct DaemonStoreFaultTests {
    /// 40 fences of 30 m every 100 m along a 4.2 km drive east (1 Hz, a perfect receiver): an enter and an exit
    /// every 7 s or so (all of them are outside at the first fix: no state event).
    static let fences = (0..<40).map { (id: "f\($0)", center: DaemonFixtures.east(150 + 100 * Double($0)), radius: 30.0) }

    struct Scenario {
        let directory: URL
        let fencesFile: URL
        let epochs: [String]
        /// The replay's event lines for the whole drive.
        let expected: [String]
        /// How many of them the first third of the drive makes.
        let firstThird: Int

        init() throws {
            directory = try GeofenceExecutable.temporaryDirectory()
            fencesFile = directory.appendingPathComponent("fences.csv")
            try DaemonFixtures.writeFences(DaemonStoreFaultTests.fences, to: fencesFile)
            let observations = try DaemonFixtures.drive(length: 4_200, seed: 5).observations
            epochs = observations.map { NMEAWriter().sentences(for: $0).map { $0 + "\r\n" }.joined() }
            let log = directory.appendingPathComponent("drive.nmea")
            try DaemonFixtures.nmea(observations).write(to: log, atomically: true, encoding: .utf8)
            let replay = try GeofenceExecutable.run(["replay", log.path, "--fences", fencesFile.path, "--format", "jsonl"])
            expected = replay.standardOutput.split(separator: "\n").map(String.init)
            // Whole seconds at 1 Hz: the times compare as text. The last epoch written is held by the daemon's
            // reader until the next one begins.
            let cutoff = ISO8601Time.format(observations[epochs.count / 3 - 2].time)
            firstThird = try EventLine.parse(replay.standardOutput).filter { $0.time <= cutoff }.count
        }

        /// Starts the daemon on `store`, feeds the first third of the drive and waits until its events are out.
        func startAndFeedFirstThird(store: String, extra: [String] = []) async throws -> (DaemonProcess, URL, URL) {
            let output = directory.appendingPathComponent("stdout.jsonl")
            let errors = directory.appendingPathComponent("stderr.txt")
            let daemon = try DaemonProcess(
                ["run", "--store", store, "--nmea", "-", "--format", "jsonl", "--fences", fencesFile.path] + extra,
                output: output, errors: errors)
            try await daemon.waitForStandardError(containing: "reading NMEA")
            daemon.write(epochs[..<(epochs.count / 3)].joined())
            let shown = try await daemon.waitForStandardOutput(timeout: .seconds(60)) { $0.count >= firstThird }
            #expect(shown, "the first third's events are delivered before the fault")
            return (daemon, output, errors)
        }

        /// Feeds the rest of the drive, a fix at a time, and closes the input.
        func feedTheRest(_ daemon: DaemonProcess) async throws {
            for epoch in epochs[(epochs.count / 3)...] {
                daemon.write(epoch)
                try await Task.sleep(for: .milliseconds(2))
            }
            try daemon.closeInput()
        }
    }

    /// Checks what a failed run left: the store (copied to `copyDirectory` first: the file system it is on may no
    /// longer be writable, and SQLite must be able to recover its -wal file) holds the replay's first events,
    /// exactly, with the regions' states they imply; every line delivered is one of them.
    static func checkStoredPrefix(
        store: String, copyDirectory: URL, output: URL, expected: [String], atLeast minimum: Int
    ) throws -> Int {
        let copy = copyDirectory.appendingPathComponent("copy.db").path
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store + suffix) {
            try FileManager.default.copyItem(atPath: store + suffix, toPath: copy + suffix)
        }
        let reopened = try GeofenceStore(path: copy)
        let stored = try reopened.events(after: 0, limit: 1_000_000).map(\.jsonLine)
        #expect(stored.count >= minimum, "every event stored before the fault is still there")
        #expect(stored == Array(expected.prefix(stored.count)), "the store holds the replay's first events")
        let delivered = Set(String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n").map(String.init))
        #expect(delivered.isSubset(of: Set(stored)), "delivered but not stored: \(delivered.subtracting(stored).prefix(3))")
        // The regions as imported, each in the state its last stored event left; one without an event is outside
        // (stored without a word at the first fix) or unknown (that fix's states were not stored).
        let regions = try reopened.regions()
        #expect(regions.map(\.region.identifier) == fences.map(\.id))
        let events = try EventLine.parse(stored.joined(separator: "\n"))
        for entry in regions {
            let last = events.last { $0.region == entry.region.identifier }
            let expected = last.map { [$0.state] } ?? ["outside", "unknown"]
            #expect(expected.contains(entry.stateRecord.state.rawValue),
                    "\(entry.region.identifier): \(entry.stateRecord.state)")
        }
        return stored.count
    }

    @Test(.enabled(if: ScratchFileSystem.isAvailable, "needs root to mount a tmpfs (CI runs as root)"))
    func fullFileSystemThenSpaceAgainLosesNothing() async throws {
        let scenario = try Scenario()
        defer { try? FileManager.default.removeItem(at: scenario.directory) }
        let disk = try ScratchFileSystem(.tmpfs, size: 1 << 20)
        let store = disk.path + "/unit.db"
        let (daemon, output, errors) = try await scenario.startAndFeedFirstThird(store: store)
        try disk.fill()
        // Half of the rest with the disk full: the events wait in memory...
        let half = scenario.epochs.count / 3 + (scenario.epochs.count * 2 / 3) / 2
        for epoch in scenario.epochs[(scenario.epochs.count / 3)..<half] {
            daemon.write(epoch)
            try await Task.sleep(for: .milliseconds(2))
        }
        let refused = try await Self.waitFor("cannot store", in: daemon)
        #expect(refused, "the daemon says it cannot store: \(daemon.standardError)")
        // ...and are stored, in order, at the first fix after space comes back.
        try FileManager.default.removeItem(atPath: disk.path + "/filler")
        for epoch in scenario.epochs[half...] { daemon.write(epoch) }
        try daemon.closeInput()
        let status = try await daemon.waitForExit(timeout: .seconds(60))
        #expect(status == 0, "\(daemon.standardError)")
        let message = daemon.standardError.split(separator: "\n").first { $0.contains("cannot store") } ?? ""
        #expect(message.contains(store) && message.contains("full"), "the error names the store: \(message)")

        let reopened = try GeofenceStore(path: store)
        #expect(try reopened.events(after: 0, limit: 1_000_000).map(\.jsonLine) == scenario.expected,
                "every event stored, as the replay has them")
        let delivered = String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(Set(delivered) == Set(scenario.expected), "every event delivered")
        #expect(delivered.count <= scenario.expected.count + 64, "repeats at most a batch: \(delivered.count)")
        print("full tmpfs, then space: \(scenario.expected.count) events stored and delivered "
            + "(\(delivered.count - scenario.expected.count) repeats); logged: \(message)")
        _ = errors
    }

    @Test(.enabled(if: ScratchFileSystem.isAvailable, "needs root to mount a tmpfs (CI runs as root)"))
    func fullFileSystemToTheEndFailsNamingTheStore() async throws {
        let scenario = try Scenario()
        defer { try? FileManager.default.removeItem(at: scenario.directory) }
        let disk = try ScratchFileSystem(.tmpfs, size: 1 << 20)
        let store = disk.path + "/unit.db"
        let (daemon, output, _) = try await scenario.startAndFeedFirstThird(store: store)
        let before = try Self.storedCount(daemon: output)
        try disk.fill()
        try await scenario.feedTheRest(daemon)
        let status = try await daemon.waitForExit(timeout: .seconds(60))
        #expect(status == 1, "exit status \(status): \(daemon.standardError)")
        let last = daemon.standardError.split(separator: "\n").last { $0.contains("could not be stored") } ?? ""
        #expect(last.contains(store) && last.contains("full"), "the final error names the store: \(daemon.standardError)")

        try FileManager.default.removeItem(atPath: disk.path + "/filler")
        let kept = try Self.checkStoredPrefix(
            store: store, copyDirectory: scenario.directory, output: output, expected: scenario.expected, atLeast: before)
        print("full tmpfs to the end: exit \(status), \(kept) of \(scenario.expected.count) events stored "
            + "(\(before) before the disk filled); logged: \(last)")
    }

    @Test(.enabled(if: ScratchFileSystem.canMountExt4, "needs root, loop devices and mkfs.ext4 (e2fsprogs)"))
    func fileSystemTurnedReadOnlyFailsNamingTheStore() async throws {
        let scenario = try Scenario()
        defer { try? FileManager.default.removeItem(at: scenario.directory) }
        let disk = try ScratchFileSystem(.ext4, size: 8 << 20)
        let store = disk.path + "/unit.db"
        let (daemon, output, _) = try await scenario.startAndFeedFirstThird(store: store)
        let before = try Self.storedCount(daemon: output)
        try disk.abortToReadOnly()  // as the kernel does after an I/O error, under the open store
        try await scenario.feedTheRest(daemon)
        let status = try await daemon.waitForExit(timeout: .seconds(60))
        #expect(status == 1, "exit status \(status): \(daemon.standardError)")
        let last = daemon.standardError.split(separator: "\n").last { $0.contains("could not be stored") } ?? ""
        // SQLite reports the failed commit as an I/O error (SQLITE_IOERR_WRITE, 778) after EROFS; the store maps
        // only SQLITE_READONLY to "read-only".
        #expect(last.contains(store) && (last.contains("read-only") || last.contains("I/O error")),
                "the final error names the store: \(daemon.standardError)")

        let kept = try Self.checkStoredPrefix(
            store: store, copyDirectory: scenario.directory, output: output, expected: scenario.expected, atLeast: before)
        print("ext4 read-only under the daemon: exit \(status), \(kept) of \(scenario.expected.count) events stored "
            + "(\(before) before); logged: \(last)")
    }

    /// The file system turns read-only while a slow `--exec` command works through a batch: the sink's cursor
    /// cannot be recorded any more, yet no event is sent to it twice, and the daemon still stops (exit 1: the
    /// rest of the drive's events could not be stored). Before the fix, the worker sent the same batch again and
    /// again, as fast as the command ran, and its progress kept the stop waiting for ever.
    @Test(.enabled(if: ScratchFileSystem.canMountExt4, "needs root, loop devices and mkfs.ext4 (e2fsprogs)"))
    func cursorThatCannotBeRecordedRepeatsNothing() async throws {
        let scenario = try Scenario()
        defer { try? FileManager.default.removeItem(at: scenario.directory) }
        let disk = try ScratchFileSystem(.ext4, size: 8 << 20)
        let store = disk.path + "/unit.db"
        let log = scenario.directory.appendingPathComponent("exec.log").path
        let hook = scenario.directory.appendingPathComponent("hook.sh")
        try "#!/bin/sh\necho \"$GEOFENCE_SEQ\" >> '\(log)'\nsleep 0.02\n".write(to: hook, atomically: true, encoding: .utf8)
        chmod(hook.path, 0o755)
        let (daemon, _, _) = try await scenario.startAndFeedFirstThird(store: store, extra: ["--exec", hook.path])
        let calls = { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int($0) } }
        let deadline = ContinuousClock.now + .seconds(30)
        while calls().count < 5 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try disk.abortToReadOnly()  // in the middle of the command's first batch
        try await scenario.feedTheRest(daemon)
        let status = try await daemon.waitForExit(timeout: .seconds(90))
        #expect(status == 1, "\(daemon.standardError)")
        let sequence = calls()
        #expect(sequence == Array(1...max(1, sequence.count)), "each event once, in order: \(sequence.count) calls")
        #expect(daemon.standardError.contains("cannot record the delivery cursor"), "\(daemon.standardError)")
        print("read-only under a slow --exec: exit \(status), \(sequence.count) calls, none repeated")
    }

    /// A store damaged before the start, or not a store at all: the daemon refuses it at once, naming it, exits 1,
    /// prints no event, and leaves every byte of it as it was.
    @Test func corruptStoreRefusedAtStartUnchanged() throws {
        let scenario = try Scenario()
        defer { try? FileManager.default.removeItem(at: scenario.directory) }
        let store = scenario.directory.appendingPathComponent("unit.db").path
        let log = scenario.directory.appendingPathComponent("drive.nmea").path
        let first = try GeofenceExecutable.run(
            ["run", "--store", store, "--nmea", log, "--format", "jsonl", "--fences", scenario.fencesFile.path])
        #expect(first.status == 0, "\(first.standardError)")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect(bytes.count > 8192)
        var random = SplitMix64(seed: 99)
        for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        try bytes.write(to: URL(fileURLWithPath: store))
        let notAStore = scenario.directory.appendingPathComponent("notes.db").path
        try "id,lat,lon,radius_m\n".write(toFile: notAStore, atomically: true, encoding: .utf8)

        for (path, words) in [(store, "corrupt"), (notAStore, "not a geofence store")] {
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let outcome = try GeofenceExecutable.run(
                ["run", "--store", path, "--nmea", log, "--format", "jsonl", "--fences", scenario.fencesFile.path])
            #expect(outcome.status == 1, "\(outcome.standardError)")
            #expect(outcome.standardError.contains(path) && outcome.standardError.contains(words), "\(outcome.standardError)")
            #expect(outcome.standardOutput.isEmpty, "no event delivered")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(path) was changed")
        }
    }

    /// Events delivered so far (complete lines).
    static func storedCount(daemon output: URL) throws -> Int {
        String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n").count
    }

    static func waitFor(_ text: String, in daemon: DaemonProcess) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if daemon.standardError.contains(text) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
