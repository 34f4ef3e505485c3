import Foundation
import GeofencingStore
import GeofencingTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The store as the commands use it: one daemon per store (a second exits 1 naming the store and the process that
/// holds it, while `geofence fences` keeps working beside the first), commands that only read never create a store,
/// and a path that is a symbolic link, a device or SQLite's ":memory:" is never taken for what SQLite would make of
/// it. Real processes, real files.
@Suite(.enabled(if: GeofenceExecutable.isBuilt, "the geofence executable is not built next to the tests"))
struct StorePathCommandTests {
    /// The names of the files in `directory`, sorted.
    static func files(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test func aSecondDaemonOnTheSameStoreExitsNamingTheFirst() async throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fences, _, epochs) = try DaemonSecurityTests.scenario(in: directory)
        let store = directory.appendingPathComponent("unit.db").path
        let first = try DaemonProcess(
            ["run", "--store", store, "--nmea", "-", "--format", "jsonl", "--fences", fences.path],
            output: directory.appendingPathComponent("first.jsonl"),
            errors: directory.appendingPathComponent("first.err"))
        defer { first.kill() }
        try await first.waitForStandardError(containing: "reading NMEA")

        // The second gets fences of its own: refused before it imports anything.
        let other = directory.appendingPathComponent("other.csv")
        try "id,lat,lon,radius_m\nintruder,-27.5,153.01,50\n".write(to: other, atomically: true, encoding: .utf8)
        let second = try GeofenceExecutable.run(
            ["run", "--store", store, "--nmea", "-", "--format", "jsonl", "--fences", other.path])
        #expect(second.status == 1)
        #expect(second.standardError.contains("the store \(store) is in use by another process "
            + "(pid \(first.process.processIdentifier), which holds \(store).lock)"), "\(second.standardError)")
        #expect(second.standardOutput.isEmpty)

        // Beside the running daemon, fences commands work as documented: list reads, import writes.
        let listed = try GeofenceExecutable.run(["fences", "list", "--store", store])
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.split(separator: "\n").map { $0.prefix { $0 != "," } } == ["id", "A", "B"])
        let imported = try GeofenceExecutable.run(["fences", "import", other.path, "--store", store])
        #expect(imported.status == 0, "\(imported.standardError)")

        // The first daemon still stores and delivers every event, numbered without a gap (an enter and an exit of
        // A and B: both are outside at the first fix, which the daemon reports no state for).
        first.write(epochs.joined())
        #expect(try await first.waitForStandardOutput(timeout: .seconds(60)) { $0.count >= 4 })
        try first.closeInput()
        #expect(try await first.waitForExit(timeout: .seconds(60)) == 0, "\(first.standardError)")
        let stored = try GeofenceStore(path: store, readOnly: true)
        #expect(try stored.lastSequence() >= 4)
        #expect(try stored.regions().map(\.region.identifier) == ["A", "B", "intruder"])

        // Once the first has stopped, the store can be claimed again (the lock file stays, with a stale pid).
        let again = try GeofenceExecutable.run(["run", "--store", store, "--nmea", "-", "--format", "jsonl"])
        #expect(again.status == 0, "\(again.standardError)")
    }

    @Test(arguments: [["list"], ["export"], ["export", "--format", "csv"], ["remove", "A"]])
    func aCommandThatNeedsAStoreNeverCreatesOne(_ action: [String]) throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let typo = directory.appendingPathComponent("typo.db").path
        let outcome = try GeofenceExecutable.run(["fences"] + action + ["--store", typo])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("no store at \(typo)"), "\(outcome.standardError)")
        #expect(Self.files(in: directory).isEmpty, "created: \(Self.files(in: directory))")
    }

    /// ":memory:" is a file name like any other: nothing to list in a directory without that file, and an import
    /// makes a real store of that name, which a later command reads back.
    @Test func sqliteSpecialNamesAreFileNames() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let listed = try GeofenceExecutable.run(["fences", "list", "--store", ":memory:"], in: directory)
        #expect(listed.status == 1)
        #expect(listed.standardError.contains("no store at :memory:"), "\(listed.standardError)")
        #expect(Self.files(in: directory).isEmpty, "created: \(Self.files(in: directory))")

        let fences = directory.appendingPathComponent("f.csv")
        try "id,lat,lon,radius_m\nm,-27.5,153,50\n".write(to: fences, atomically: true, encoding: .utf8)
        #expect(try GeofenceExecutable.run(["fences", "import", fences.path, "--store", ":memory:"],
                                           in: directory).status == 0)
        let again = try GeofenceExecutable.run(["fences", "list", "--store", ":memory:"], in: directory)
        #expect(again.standardOutput.hasSuffix("\nm,circle,-27.5,153,50,,,unknown,,\n"), "\(again.standardOutput)")
        // A command that only reads may leave the (empty, 0600) -wal and -shm files of SQLite's read-only WAL mode.
        #expect(Self.files(in: directory).filter { !$0.hasPrefix(":memory:-") } == [":memory:", "f.csv"])
    }

    /// A symbolic link, a directory, a FIFO and /dev/null are refused, naming the path, before SQLite could follow
    /// or create anything (a FIFO would block an open for reading; /dev/null got a -journal file beside it).
    @Test func onlyARegularFileIsAStore() throws {
        let directory = try GeofenceExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appendingPathComponent("real.db").path
        let fences = directory.appendingPathComponent("f.csv")
        try "id,lat,lon,radius_m\nm,-27.5,153,50\n".write(to: fences, atomically: true, encoding: .utf8)
        #expect(try GeofenceExecutable.run(["fences", "import", fences.path, "--store", real]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: real))
        let link = directory.appendingPathComponent("link.db").path
        #expect(symlink(real, link) == 0)
        let dangling = directory.appendingPathComponent("dangling.db").path
        #expect(symlink(directory.appendingPathComponent("target.db").path, dangling) == 0)
        let fifo = directory.appendingPathComponent("fifo.db").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let folder = directory.appendingPathComponent("folder.db").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let refusals = [(link, "is a symbolic link, which is never followed"),
                        (dangling, "is a symbolic link, which is never followed"),
                        (fifo, "it is a FIFO, not a regular file"), (folder, "is a directory, not a regular file")]
        for (path, reason) in refusals {
            for command in [["fences", "list"], ["fences", "import", fences.path], ["run", "--nmea", "-"]] {
                let outcome = try GeofenceExecutable.run(command + ["--store", path])
                #expect(outcome.status == 1, "\(command) \(path)")
                #expect(outcome.standardError.contains("cannot open the store \(path): ")
                        && outcome.standardError.contains(reason), "\(command): \(outcome.standardError)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: real)) == before, "the link's target is unchanged")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("target.db").path))
        let leftovers = Self.files(in: directory).filter { $0.hasSuffix("-journal") || $0.hasSuffix("-wal") }
        #expect(leftovers.isEmpty, "\(leftovers)")

        let hadJournal = FileManager.default.fileExists(atPath: "/dev/null-journal")
        let devNull = try GeofenceExecutable.run(["fences", "list", "--store", "/dev/null"])
        #expect(devNull.status == 1)
        #expect(devNull.standardError.contains("cannot open the store /dev/null: it is a character device, not a "
            + "regular file"), "\(devNull.standardError)")
        #expect(hadJournal || !FileManager.default.fileExists(atPath: "/dev/null-journal"))
    }
}
