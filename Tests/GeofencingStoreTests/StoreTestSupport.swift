// Helpers of the store tests: a fresh directory per test, fixtures, the sqlite3 shell as a child process, and tmpfs
// mounts for a full and a read-only file system.
import CSQLite
import Foundation
import Geofencing
import GeofencingEvents
@testable import GeofencingStore
import Testing

/// A fresh directory under the system's temporary directory, removed with everything in it when released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("geofence-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

enum Fixture {
    /// A GNSS time: 2008-03-03T22:25:13Z plus `seconds`.
    static func time(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_204_583_113 + seconds) }

    static func region(
        _ identifier: String, latitude: Double = -27.4698, longitude: Double = 153.0251, radius: Double = 100,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true, dwellTime: Double? = nil, hysteresis: Double? = nil
    ) -> Region {
        Region(
            center: Coordinate(latitude: latitude, longitude: longitude), radius: radius, identifier: identifier,
            notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit, dwellTime: dwellTime, hysteresis: hysteresis)
    }

    /// An event with the state its kind implies (enter: inside, exit: outside, dwell: inside).
    static func event(
        _ sequence: UInt64, _ kind: EventRecord.Kind, _ region: String, at seconds: Double = 0,
        state: RegionState? = nil, inferred: Bool = false
    ) -> EventRecord {
        let implied: RegionState = switch kind {
        case .enter, .dwell, .overspeed, .overspeedEnd: .inside
        case .exit: .outside
        case .approach, .state: .unknown
        }
        let resulting = state ?? implied
        return EventRecord(
            sequence: sequence, kind: kind, region: region, time: time(seconds),
            latitude: -27.4698123, longitude: 153.0251234, distance: resulting == .unknown ? nil : -3.25,
            state: resulting, inferred: inferred)
    }

    /// The record of a region inside since `seconds` (what a monitor reports with an enter, or a dwell).
    static func inside(since seconds: Double, dwellReported: Bool = false) -> RegionStateRecord {
        RegionStateRecord(state: .inside, insideSince: time(seconds), dwellReported: dwellReported)
    }

    /// The record of a region outside (what a monitor reports with an exit, or a determination outside).
    static let outside = RegionStateRecord(state: .outside)

    /// `count` state events (determinations, outside) numbered from `first`, for region "r".
    static func events(from first: UInt64, count: Int) -> [EventRecord] {
        (0..<UInt64(count)).map { event(first + $0, .state, "r", at: Double($0), state: .outside) }
    }

    /// Identifiers that break naive SQL or C string handling.
    static let awkwardIdentifiers = [
        "stop-1234", "O'Connell St \"north\"", "Ünïcödé 東京駅 🚏", "semi;colon -- DROP TABLE regions", "a\u{0}b",
        "%_?#&=", " ",
    ]
}

extension StoredRegion {
    /// A region as stored right after it was added: nothing known.
    static func new(_ region: Region) -> StoredRegion {
        StoredRegion(region: region, stateRecord: RegionStateRecord(state: .unknown))
    }
}

/// Opens the older store at `path` for writing (which upgrades it) and makes a new store at `freshPath`; returns
/// both files' schemas as the sqlite3 shell lists them (every table, index and trigger with its SQL), which an
/// upgrade must make equal.
func schemasAfterUpgrade(
    of path: String, besideNewStoreAt freshPath: String
) throws -> (upgraded: String, new: String) {
    _ = try GeofenceStore(path: path)
    _ = try GeofenceStore(path: freshPath)
    let schema = "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name"
    return (try run(SQLiteShell.executable, [path, schema]), try run(SQLiteShell.executable, [freshPath, schema]))
}

/// Opens the store at `path` for writing with the upgrade statement named `failingStep` failing as on a full disk
/// (the injected SQLITE_FULL): the step runs, the open throws `diskFull`, and the file keeps every byte it had.
func expectUpgradeFailingAt(
    _ failingStep: String, leavesUnchanged path: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let before = try #require(fileBytes(path), sourceLocation: sourceLocation)
    var failed = false
    let error = #expect(throws: StoreError.self, sourceLocation: sourceLocation) {
        _ = try GeofenceStore(path: path, readOnly: false, busyTimeout: .seconds(5)) { site in
            guard site.function == "sqlite3_step", site.statement == failingStep else { return nil }
            failed = true
            return SQLITE_FULL
        }
    }
    #expect(failed, "the step \(failingStep) ran", sourceLocation: sourceLocation)
    #expect(error == .diskFull(path: path), sourceLocation: sourceLocation)
    #expect(fileBytes(path) == before, "the file changed", sourceLocation: sourceLocation)
}

/// The file's bytes, or nil when it does not exist.
func fileBytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// The permission bits of a file.
func fileMode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}

/// Runs a program to its end; throws with its stderr when it fails.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CommandFailure(description: "\(executable) \(arguments.joined(separator: " ")) exited with "
            + "\(process.terminationStatus): \(errorText)")
    }
    return text
}

/// The sqlite3 command-line shell on a file, as a child process fed through its stdin: another process holding
/// the store's lock, or writing to it when it is killed.
final class SQLiteShell {
    static let executable = "/usr/bin/sqlite3"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var received = ""

    init(path: String) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-batch", path]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    func send(_ sql: String) {
        input.fileHandleForWriting.write(Data((sql + "\n").utf8))
    }

    /// Sends `SELECT '<marker>';` after what was sent before and waits until the shell prints it: everything
    /// before it has run.
    func sync(_ marker: String) throws {
        send("SELECT '\(marker)';")
        while !received.contains(marker + "\n") {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else {
                throw CommandFailure(description: "sqlite3 ended before printing \(marker): \(received)")
            }
            received += String(decoding: data, as: UTF8.self)
        }
    }

    /// Closes its stdin and waits for it to end (an open transaction is rolled back).
    func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// SIGKILL, as a power cut or an OOM kill would end it, and waits for it.
    func killNow() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// A tmpfs mounted for one test (the tests run as root in CI): a file system that fills up, or one that is
/// remounted read-only. Unmounted when released.
final class TmpfsMount {
    let path: String

    /// Whether this process may mount (root, with CAP_SYS_ADMIN in its namespace); tried once on a scratch mount.
    static let isAvailable: Bool = {
        guard let directory = try? TemporaryDirectory() else { return false }
        let point = directory.path("probe")
        guard (try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: false)) != nil,
              (try? run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", point])) != nil
        else { return false }
        _ = try? run("/bin/umount", ["-l", point])
        return true
    }()

    /// Mounts a tmpfs of `size` ("256k") at `path` (created if needed).
    init(at path: String, size: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path])
        self.path = path
    }

    func remountReadOnly() throws {
        try run("/bin/mount", ["-o", "remount,ro", path])
    }

    deinit {
        _ = try? run("/bin/umount", ["-l", path])
    }
}
